import Foundation
import Testing

@testable import Magpie

/// The `magpie` command as CONTRACT.md describes it: exit codes, error
/// lines, JSON fields and the files `decode` writes.
@Suite struct CLITests {
  /// 4x2 pixels: opaque primaries, a half-transparent orange, a fully
  /// transparent pixel, grey and white.
  static let knownPixels: [UInt8] = [
    255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 128, 0, 128,
    10, 20, 30, 0, 128, 128, 128, 255, 255, 255, 255, 255, 0, 0, 0, 255,
  ]

  private func json(_ text: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(object as? [String: Any])
  }

  @Test func noArgumentsIsAUsageError() async throws {
    let result = try await CLIRunner.run([])
    #expect(result.status == 2)
    #expect(result.stderr.contains("magpie: error: "))
  }

  @Test func unknownCommandIsAUsageErrorOnOneLine() async throws {
    let result = try await CLIRunner.run(["frobnicate"])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("magpie: error: frobnicate: "))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func infoPrintsTheContractFields() async throws {
    let path = TestPaths.fixtures.appendingPathComponent("png/seed_rgba8.png").path
    let result = try await CLIRunner.run(["info", path])
    #expect(result.status == 0, "\(result.stderr)")
    let line = result.stdout.trimmingCharacters(in: .newlines)
    let keys = ["format", "width", "height", "frames", "loop_count", "delays_ms", "orientation", "bytes"]
    // Fields come in the contract's order.
    let positions = keys.map { line.range(of: "\"\($0)\"")?.lowerBound }
    #expect(positions.allSatisfy { $0 != nil })
    #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    let info = try json(line)
    #expect(info["format"] as? String == "png")
    #expect(info["width"] as? Int == 32)
    #expect(info["height"] as? Int == 32)
    #expect(info["frames"] as? Int == 1)
    #expect(info["delays_ms"] as? [Int] == [0])
    #expect(info["orientation"] as? Int == 1)
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
    #expect(info["bytes"] as? Int == size)
  }

  @Test func infoOfAMissingFileFails() async throws {
    let result = try await CLIRunner.run(["info", "/nonexistent/photo.jpg"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("magpie: error: read /nonexistent/photo.jpg: "))
  }

  @Test func decodeWritesStraightAlphaAndReportsEachFailure() async throws {
    let dir = try TemporaryDirectory()
    let good = dir.path("known.png")
    try StoredPNG.encode(width: 4, height: 2, rgba: Self.knownPixels).write(to: URL(fileURLWithPath: good))
    let bad = dir.path("notes.jpg")
    try Data("this is not an image".utf8).write(to: URL(fileURLWithPath: bad))
    let out = dir.path("out")

    let result = try await CLIRunner.run(["decode", good, bad, "--out", out])
    #expect(result.status == 1)
    #expect(result.stderr.contains("magpie: error: decode \(bad): "))

    // The file's straight values exactly: half-transparent orange and the
    // colour under alpha 0 too, with no premultiplied round trip.
    let rgba = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/known.png.rgba")))
    try #require(rgba.count == Self.knownPixels.count)
    #expect(GIFWebPFixtureTests.maxDifference(rgba, Self.knownPixels) == 0, "\(rgba)")
    let record = try json(
      String(decoding: Data(contentsOf: URL(fileURLWithPath: out + "/known.png.json")), as: UTF8.self))
    #expect(record["width"] as? Int == 4)
    #expect(record["height"] as? Int == 2)
    #expect(record["frames"] as? Int == 1)
    #expect(record["delays_ms"] as? [Int] == [0])
    #expect(record["loop_count"] as? Int == 0)

    let failure = try json(
      String(decoding: Data(contentsOf: URL(fileURLWithPath: out + "/notes.jpg.json")), as: UTF8.self))
    #expect((failure["error"] as? String)?.isEmpty == false)
    #expect(!FileManager.default.fileExists(atPath: out + "/notes.jpg.rgba"))
  }

  @Test func decodeConvertsAlphaImagesLargerThanItsScratchBuffer() async throws {
    // 301x293 RGBA is 352,772 bytes: the 256 KiB band fills mid-row.
    let (width, height) = (301, 293)
    let known = (0..<(width * height)).flatMap { i -> [UInt8] in
      let alpha = UInt8(truncatingIfNeeded: i % 7 == 0 ? 0 : i % 5 == 0 ? 255 : 40 + i % 200)
      return [UInt8(truncatingIfNeeded: i), UInt8(truncatingIfNeeded: i / width * 3), UInt8(i % 251), alpha]
    }
    let dir = try TemporaryDirectory()
    let path = dir.path("wide.png")
    try StoredPNG.encode(width: width, height: height, rgba: known).write(to: URL(fileURLWithPath: path))
    let result = try await CLIRunner.run(["decode", path, "--out", dir.path("out")])
    #expect(result.status == 0, "\(result.stderr)")
    let rgba = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("out/wide.png.rgba"))))
    try #require(rgba.count == known.count)
    var worst = 0
    for index in rgba.indices where index % 4 != 3 && known[index | 3] != 0 {
      // Premultiplying at alpha a keeps colour to within 255 / (2a).
      let alpha = Int(known[index | 3])
      worst = max(worst, abs(Int(rgba[index]) - Int(known[index])) - (255 + alpha) / (2 * alpha))
    }
    #expect(worst <= 0, "colour off by \(worst) more than premultiplying allows")
    #expect(stride(from: 3, to: rgba.count, by: 4).allSatisfy { rgba[$0] == known[$0] }, "alpha differs")
  }

  @Test func decodeWritesEveryFrameOfAnAnimation() async throws {
    // disposal.gif: 7 frames with transparent pixels; the fixture script's
    // browser-rule reference is straight RGBA, frames one after another.
    let dir = try TemporaryDirectory()
    let path = dir.path("disposal.gif")
    try TestPaths.fixture("gif/disposal.gif").write(to: URL(fileURLWithPath: path))
    let result = try await CLIRunner.run(["decode", path, "--out", dir.path("out")])
    #expect(result.status == 0, "\(result.stderr)")
    let rgba = try Data(contentsOf: URL(fileURLWithPath: dir.path("out/disposal.gif.rgba")))
    #expect(rgba == (try TestPaths.fixture("gif/disposal.gif.rgba")))
  }

  @Test func decodeNeedsAnOutputFolder() async throws {
    let result = try await CLIRunner.run(["decode", "a.png"])
    #expect(result.status == 2)
  }

  @Test func convertPicksTheFormatFromTheExtensionAndDownsamples() async throws {
    let dir = try TemporaryDirectory()
    let input = TestPaths.photo("birds").path
    let output = dir.path("thumb.jpg")
    let result = try await CLIRunner.run([
      "convert", input, output, "--process", "downsample(200x200)", "--quality", "80",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let record = try json(result.stdout)
    #expect(record["format"] as? String == "jpeg")
    #expect(record["width"] as? Int == 200)
    #expect(record["height"] as? Int == 133)
    let written = try Data(contentsOf: URL(fileURLWithPath: output))
    #expect(record["bytes"] as? Int == written.count)
    #expect(ImageFormat.sniff(written) == .jpeg)
  }

  @Test func convertKeepsMetadataOnlyWhenAsked() async throws {
    let dir = try TemporaryDirectory()
    let input = TestPaths.fixtures.appendingPathComponent("jpeg/orient6.jpg").path
    for (flags, kept) in [([String](), false), (["--keep-metadata"], true)] {
      let output = dir.path("out-\(kept).jpg")
      let result = try await CLIRunner.run(["convert", input, output] + flags)
      #expect(result.status == 0, "\(result.stderr)")
      let written = try Data(contentsOf: URL(fileURLWithPath: output))
      #expect((ImageMetadata.read(from: written).exif != nil) == kept)
      // Kept or not, the turned pixels are not turned again.
      #expect(try CoderRegistry.shared.decode(written).orientation == .up)
    }
  }

  @Test(arguments: [
    (["convert", "in.png"], "one path"),
    (["convert", "in.png", "out.tiff"], "unknown extension"),
    (["convert", "in.png", "out.png", "--quality", "101"], "quality out of range"),
    (["convert", "in.png", "out.png", "--format", "tga"], "unknown format"),
    (["convert", "in.png", "out.png", "--process", "sharpen(3)"], "unknown processor"),
    (["convert", "in.png", "out.png", "--process", "downsample(0x10)"], "empty size"),
    (["convert", "in.png", "out.png", "--process", "downsample(10x10"], "missing parenthesis"),
    (["convert", "in.png", "out.png", "--bogus"], "unknown option"),
    (["convert", "in.png", "out.png", "--icc", "p3"], "unknown profile embedding"),
    (["bench", "decode", "list.txt", "x", "1"], "bad repetitions"),
    (["bench", "resize", "list.txt", "1", "1"], "unknown task"),
  ])
  func usageErrorsExitWithTwo(arguments: [String], why: String) async throws {
    let result = try await CLIRunner.run(arguments)
    #expect(result.status == 2, "\(why): \(result.stderr)")
    #expect(result.stderr.hasPrefix("magpie: error: "), "\(why)")
  }

  @Test func benchSpeaksTheProtocol() async throws {
    let dir = try TemporaryDirectory()
    let png = TestPaths.fixtures.appendingPathComponent("png/seed_rgb8.png").path
    let junk = dir.path("junk.bin")
    try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: junk))
    let list = dir.path("list.txt")
    try "\(png)\n\(junk)\n".write(toFile: list, atomically: true, encoding: .utf8)

    let result = try await CLIRunner.run(["bench", "decode", list, "3", "1"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(try json(lines[0])["meta"] is [String: Any])
    let timed = try json(lines[1])
    #expect(timed["path"] as? String == png)
    #expect((timed["ms"] as? [Double])?.count == 3)
    #expect(timed["out"] as? [Int] == [32, 32])
    let skipped = try json(lines[2])
    #expect(skipped["path"] as? String == junk)
    #expect(skipped["skip"] is String)

    let noop = try await CLIRunner.run(["bench", "noop", list, "1", "0"])
    #expect(noop.status == 0)
    #expect(noop.stdout.split(separator: "\n").count == 1)
  }
}
