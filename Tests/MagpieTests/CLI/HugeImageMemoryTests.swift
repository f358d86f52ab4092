import Foundation
import Testing

@testable import Magpie

/// A 10000x10000 JPEG shown at 256 px must never cost the full-size
/// decode (400 MB): JPEG's DCT scaling decodes it at 1/8.
@Suite struct HugeImageMemoryTests {
  /// Streams a `side` x `side` PPM through libjpeg-turbo's `cjpeg`
  /// (Debian's libjpeg-turbo-progs), so neither this process nor the file
  /// system ever holds the raw pixels (300 MB at 10000x10000).
  static func makeHugeJPEG(at path: String, side: Int) throws {
    let cjpeg = Process()
    cjpeg.executableURL = URL(fileURLWithPath: "/usr/bin/cjpeg")
    cjpeg.arguments = ["-quality", "85", "-outfile", path]
    let input = Pipe()
    cjpeg.standardInput = input
    try cjpeg.run()
    let writer = input.fileHandleForWriting
    writer.write(Data("P6\n\(side) \(side)\n255\n".utf8))
    // Bands of 40 rows share one row of pixels: cheap to make, and still an
    // image with detail in both directions.
    for band in stride(from: 0, to: side, by: 40) {
      var row = Data(count: side * 3)
      for x in 0..<side {
        row[x * 3] = UInt8(truncatingIfNeeded: x / 40)
        row[x * 3 + 1] = UInt8(truncatingIfNeeded: band / 40)
        row[x * 3 + 2] = UInt8(truncatingIfNeeded: x / 64 + band / 13)
      }
      for _ in band..<min(band + 40, side) { writer.write(row) }
    }
    try writer.close()
    cjpeg.waitUntilExit()
    #expect(cjpeg.terminationStatus == 0)
  }

  @Test(.disabled(if: Sanitizer.distortsMemory, Sanitizer.memoryReason))
  func downsamplingA100MegapixelJPEGStaysUnder64MB() async throws {
    let dir = try TemporaryDirectory()
    let huge = dir.path("huge.jpg")
    try Self.makeHugeJPEG(at: huge, side: 10_000)
    let thumb = dir.path("thumb.png")
    let result = try await CLIRunner.run(
      ["convert", huge, thumb, "--process", "downsample(256x256)"], measuringMemory: true)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("\"width\":256"))
    #expect(result.stdout.contains("\"height\":256"))
    let peak = try #require(result.maxResidentKilobytes, "no /usr/bin/time report")
    #expect(peak < 64 * 1024, "peak resident memory \(peak) KB")
  }

  @Test func fullDecodeOfTheSameImageIsRefusedOverTheLimit() throws {
    let dir = try TemporaryDirectory()
    let huge = dir.path("huge.jpg")
    try Self.makeHugeJPEG(at: huge, side: 10_001)
    let data = try Data(contentsOf: URL(fileURLWithPath: huge))
    #expect {
      _ = try CoderRegistry.shared.decode(data)
    } throws: { error in
      let error = try #require(error as? MagpieError)
      return error.code == .imageTooLarge && error.reason.contains("10001x10001")
    }
  }
}
