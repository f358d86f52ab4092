import Foundation
import Testing

@testable import Magpie

/// `magpie decode` writes every entry of an icon, largest first, each at its
/// own size; `magpie info` lists them; `magpie convert` writes BMP.
@Suite struct MultiImageCLITests {
  @Test func decodeWritesEveryEntryLargestFirst() async throws {
    let dir = try TemporaryDirectory()
    let input = TestPaths.fixtures.appendingPathComponent("ico/handmade.ico").path
    let result = try await CLIRunner.run(["decode", input, "--out", dir.path("out")])
    #expect(result.status == 0, "\(result.stderr)")
    let json =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: dir.path("out/handmade.ico.json")))) as? [String: Any]
    #expect(json?["width"] as? Int == 32)
    #expect(json?["frames"] as? Int == 5)
    let sizes = json?["frame_sizes"] as? [[Int]]
    #expect(sizes == [[32, 32], [32, 32], [24, 24], [16, 16], [16, 16]])
    let fixture = try #require(ICOFixture.all["handmade.ico"])
    let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path("out/handmade.ico.rgba"))))
    let expected = try (0..<5).flatMap { try fixture.pixels($0) }
    #expect(ICOFixture.clearingTransparent(written) == expected)
  }

  #if canImport(MagpieTIFF)
    @Test func decodeWritesEveryTIFFPageInOrder() async throws {
      let dir = try TemporaryDirectory()
      let input = TestPaths.fixtures.appendingPathComponent("tiff/pages-mixed.tif").path
      let result = try await CLIRunner.run(["decode", input, "--out", dir.path("out")])
      #expect(result.status == 0, "\(result.stderr)")
      let json =
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: URL(fileURLWithPath: dir.path("out/pages-mixed.tif.json")))) as? [String: Any]
      // 36x20, 20x36 turned upright by its orientation 6, then 20x12: page order.
      #expect(json?["frame_sizes"] as? [[Int]] == [[36, 20], [36, 20], [20, 12]])
      let written = try Data(contentsOf: URL(fileURLWithPath: dir.path("out/pages-mixed.tif.rgba")))
      let pixels = 36 * 20 * 2 + 20 * 12
      #expect(written.count == pixels * 4)
      let first = try ReferenceFixture.frame("tiff", "pages-mixed.tif")
      #expect([UInt8](written.prefix(36 * 20 * 4)) == first.straightRGBA())
      let info = try await CLIRunner.run(["info", input])
      let fields = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
      #expect((fields?["pages"] as? [[String: Any]])?.count == 3)
    }
  #endif

  @Test func infoListsTheEntriesAndAHotspot() async throws {
    let input = TestPaths.fixtures.appendingPathComponent("ico/cursor.cur").path
    let result = try await CLIRunner.run(["info", input])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    #expect(json?["format"] as? String == "ico")
    let entries = json?["entries"] as? [[String: Any]]
    #expect(entries?.map { $0["width"] as? Int } == [32, 16])
    #expect(entries?.map { $0["hotspot"] as? [Int] } == [[5, 7], [2, 3]])
  }

  @Test func convertWritesABMP() async throws {
    let dir = try TemporaryDirectory()
    let input = TestPaths.fixtures.appendingPathComponent("png/seed_rgb8.png").path
    let result = try await CLIRunner.run(["convert", input, dir.path("out.bmp")])
    #expect(result.status == 0, "\(result.stderr)")
    let written = try Data(contentsOf: URL(fileURLWithPath: dir.path("out.bmp")))
    #expect(ImageFormat.sniff(written) == .bmp)
    let original = try CoderRegistry.shared.decode(TestPaths.fixture("png/seed_rgb8.png"))
    #expect(try CoderRegistry.shared.decode(written).pixels == original.pixels)
  }
}
