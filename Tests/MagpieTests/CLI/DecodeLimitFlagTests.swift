import Foundation
import Testing

/// `magpie decode`'s limit flags: each sets its `DecodeOptions` limit, a
/// file over it fails with the contract's typed error line naming the limit,
/// and a bad value is a usage error.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct DecodeLimitFlagTests {
  static let gif = TestPaths.fixtures.appendingPathComponent("gif/disposal.gif").path

  @Test func maxFramesRefusesAnAnimationWithTheLimitNamed() async throws {
    let dir = try TemporaryDirectory()
    let result = try await CLIRunner.run(["decode", Self.gif, "--out", dir.path("out"), "--max-frames", "6"])
    #expect(result.status == 1)
    #expect(
      result.stderr.hasSuffix(": limit exceeded: gif frame count 7 exceeds maxFrameCount 6\n"), "\(result.stderr)")
    let ok = try await CLIRunner.run(["decode", Self.gif, "--out", dir.path("out"), "--max-frames", "7"])
    #expect(ok.status == 0, "\(ok.stderr)")
  }

  @Test func maxPixelsAndMaxBytesSetTheSizeLimits() async throws {
    let dir = try TemporaryDirectory()
    // disposal.gif: 7 frames of 16x16.
    let pixels = try await CLIRunner.run(["decode", Self.gif, "--out", dir.path("out"), "--max-pixels", "255"])
    #expect(pixels.status == 1)
    #expect(pixels.stderr.contains(": image too large: "), "\(pixels.stderr)")
    let bytes = try await CLIRunner.run(["decode", Self.gif, "--out", dir.path("out"), "--max-bytes", "7167"])
    #expect(bytes.status == 1)
    #expect(bytes.stderr.contains("(DecodeOptions.maxTotalByteCount)"), "\(bytes.stderr)")
  }

  @Test func aBadLimitIsAUsageError() async throws {
    let dir = try TemporaryDirectory()
    for flag in ["--max-pixels", "--max-bytes", "--max-frames", "--time-limit-ms"] {
      let result = try await CLIRunner.run(["decode", Self.gif, "--out", dir.path("out"), flag, "-1"])
      #expect(result.status == 2, "\(flag): \(result.stderr)")
    }
    // 0 turns the time limit off.
    let off = try await CLIRunner.run(["decode", Self.gif, "--out", dir.path("out"), "--time-limit-ms", "0"])
    #expect(off.status == 0, "\(off.stderr)")
  }
}
