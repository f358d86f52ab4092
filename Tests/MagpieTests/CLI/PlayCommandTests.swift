import Foundation
import Testing

/// `magpie play`: an animation played on a real clock into no display.
@Suite struct PlayCommandTests {
  private var gif: String { TestPaths.repositoryRoot.appendingPathComponent("samples/pan-00.gif").path }

  @Test func playPrintsItsCountsOnOneLine() async throws {
    let result = try await CLIRunner.run(["play", gif, "--seconds", "1", "--rate", "100", "--budget", "1"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 1)
    let fields = try #require(
      try JSONSerialization.jsonObject(with: Data(lines.first.map(String.init)?.utf8 ?? "".utf8)) as? [String: Any])
    #expect(
      Set(fields.keys) == ["frames_due", "frames_on_time", "frames_skipped", "loops", "buffer_peak_bytes", "cpu_s"])
    let due = try #require(fields["frames_due"] as? Int)
    let onTime = try #require(fields["frames_on_time"] as? Int)
    let skipped = try #require(fields["frames_skipped"] as? Int)
    // 8 frames of 80 ms for about a second: frames came due, each shown or skipped.
    #expect(due >= 1)
    #expect(onTime + skipped <= due)
    // 8 frames of 200x150 are 960,000 bytes: within the 1 MB budget.
    #expect((fields["buffer_peak_bytes"] as? Int ?? .max) <= 1 << 20)
  }

  @Test(.disabled(if: Sanitizer.distortsMemory, Sanitizer.memoryReason))
  func aLargeGIFIsHeldOnceWhileItPlays() async throws {
    let dir = try TemporaryDirectory()
    let small = try await CLIRunner.run(["play", gif, "--seconds", "1", "--budget", "1"], measuringMemory: true)
    #expect(small.status == 0, "\(small.stderr)")
    let idle = try #require(small.maxResidentKilobytes, "no /usr/bin/time report")
    // 300 frames of 480x270 stored without LZW compression: about 29 MB.
    let pixels = GIFHostileInputTests.uncompressed((0..<(480 * 270)).map { $0 % 4 })
    let frame = (x: 0, y: 0, w: 480, h: 270, data: pixels)
    let data = GIFHostileInputTests.gif(screen: (480, 270), frames: Array(repeating: frame, count: 300))
    let path = dir.path("large.gif")
    try data.write(to: URL(fileURLWithPath: path))
    let result = try await CLIRunner.run(["play", path, "--seconds", "1", "--budget", "1"], measuringMemory: true)
    #expect(result.status == 0, "\(result.stderr)")
    let peak = try #require(result.maxResidentKilobytes, "no /usr/bin/time report")
    // The file once, the 1 MB buffer, and 12 MB for the canvas, the decoder
    // and what malloc keeps; a second copy of the file would not fit.
    let file = data.count / 1024
    #expect(peak <= idle + file + 1024 + 12 * 1024, "peak \(peak) KB, idle \(idle) KB, file \(file) KB")
  }

  @Test(arguments: [
    (["play"], "no file"), (["play", "a.gif", "b.gif"], "two files"),
    (["play", "x.gif", "--seconds", "0"], "zero seconds"),
    (["play", "x.gif", "--rate", "fast"], "a rate that is not a number"),
  ])
  func badArgumentsAreUsageErrors(arguments: [String], why: String) async throws {
    let result = try await CLIRunner.run(arguments)
    #expect(result.status == 2, "\(why): \(result.stderr)")
    #expect(result.stderr.hasPrefix("magpie: error: "), "\(why)")
  }
}
