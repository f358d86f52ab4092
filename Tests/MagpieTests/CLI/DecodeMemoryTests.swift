import Foundation
import Testing

@testable import Magpie

/// Peak resident memory of `magpie decode` children (read from
/// `/usr/bin/time -v`), against the same command on a tiny image.
@Suite struct DecodeMemoryTests {
  /// A 2000x2000 screen with 10,000 frames of one pixel each: about 230 KB
  /// that would need 160 GB of canvases.
  static func tenThousandFrameGIF() -> Data {
    let frame = (x: 0, y: 0, w: 1, h: 1, data: GIFHostileInputTests.uncompressed([1]))
    return GIFHostileInputTests.gif(screen: (2000, 2000), frames: Array(repeating: frame, count: 10_000))
  }

  /// Peak resident kilobytes of `magpie decode` of a 2x2 GIF.
  static func idleKilobytes(in dir: TemporaryDirectory) async throws -> Int {
    let tiny = dir.path("tiny.gif")
    let data = GIFHostileInputTests.gif(
      screen: (2, 2), frames: [(0, 0, 2, 2, GIFHostileInputTests.uncompressed([1, 2, 3, 0]))])
    try data.write(to: URL(fileURLWithPath: tiny))
    let result = try await CLIRunner.run(["decode", tiny, "--out", dir.path("idle")], measuringMemory: true)
    #expect(result.status == 0, "\(result.stderr)")
    return try #require(result.maxResidentKilobytes, "no /usr/bin/time report")
  }

  @Test func decodingA6000By6000JPEGHoldsOneCopyOfThePixels() async throws {
    let dir = try TemporaryDirectory()
    let idle = try await Self.idleKilobytes(in: dir)
    let path = dir.path("big.jpg")
    try HugeImageMemoryTests.makeHugeJPEG(at: path, side: 6000)
    let out = dir.path("out")
    let result = try await CLIRunner.run(["decode", path, "--out", out], measuringMemory: true)
    #expect(result.status == 0, "\(result.stderr)")
    let written = try FileManager.default.attributesOfItem(atPath: out + "/big.jpg.rgba")[.size] as? Int
    #expect(written == 6000 * 6000 * 4)
    let decoded = 6000 * 6000 * 4 / 1024
    let peak = try #require(result.maxResidentKilobytes, "no /usr/bin/time report")
    let ratio = Double(peak - idle) / Double(decoded)
    #expect(peak < idle + decoded * 13 / 10, "peak \(peak) KB, idle \(idle) KB: \(ratio) x the decoded bytes")
  }

  @Test func tenThousandFramesAreRefusedFromTheHeaders() throws {
    let data = Self.tenThousandFrameGIF()
    #expect {
      _ = try GIFCoder().decode(data, options: DecodeOptions())
    } throws: { error in
      let error = try #require(error as? MagpieError)
      return error.code == .imageTooLarge
        && error.reason == "gif animation of 10000 frames of 2000x2000 needs 160000000000 bytes, over the "
          + "268435456-byte limit for all frames (DecodeOptions.maxTotalByteCount)"
    }
    // One frame is within the limit.
    let first = try GIFCoder().decode(data, options: DecodeOptions(firstFrameOnly: true))
    #expect(first.frames.count == 1)
    #expect(first.pixelSize == PixelSize(width: 2000, height: 2000))
  }

  @Test func refusingTenThousandFramesTakesNoCanvas() async throws {
    let dir = try TemporaryDirectory()
    let idle = try await Self.idleKilobytes(in: dir)
    let path = dir.path("many.gif")
    try Self.tenThousandFrameGIF().write(to: URL(fileURLWithPath: path))
    let result = try await CLIRunner.run(["decode", path, "--out", dir.path("out")], measuringMemory: true)
    #expect(result.status != 0)
    #expect(result.stderr.contains("268435456-byte limit for all frames"), "\(result.stderr)")
    let peak = try #require(result.maxResidentKilobytes, "no /usr/bin/time report")
    // One 2000x2000 canvas is 15,625 KB; stay well under it.
    #expect(peak < idle + 8 * 1024, "peak \(peak) KB, idle \(idle) KB")
  }
}
