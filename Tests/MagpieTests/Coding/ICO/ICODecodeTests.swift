import Foundation
import Testing

@testable import Magpie

/// Icons and cursors decode entry by entry to what Pillow, or the script
/// that wrote them byte by byte, says they hold.
@Suite struct ICODecodeTests {
  static let files = ICOFixture.all.keys.sorted()

  private func data(_ name: String) throws -> Data { try TestPaths.fixture("ico/\(name)") }

  @Test(arguments: files) func everyEntryDecodesLargestFirst(name: String) throws {
    let fixture = try #require(ICOFixture.all[name])
    let data = try data(name)
    #expect(ImageFormat.sniff(data) == .ico)
    let listed = try #require(try CoderRegistry.shared.subimages(in: data))
    #expect(listed.map(\.size) == fixture.entries.map { PixelSize(width: $0.width, height: $0.height) })
    #expect(listed.map(\.bitsPerPixel) == fixture.entries.map(\.bits))
    #expect(listed.map { $0.hotspot.map { [$0.x, $0.y] } } == fixture.entries.map(\.hotspot))
    let images = try CoderRegistry.shared.decodeSubimages(data)
    #expect(images.count == fixture.entries.count)
    for (index, image) in images.enumerated() {
      #expect(image.format == .ico)
      #expect(image.pixels.alphaRepresentation == .straight)
      let decoded = ICOFixture.clearingTransparent(image.pixels.straightRGBA())
      #expect(decoded == (try fixture.pixels(index)), "\(name) entry \(index): \(fixture.reference)")
    }
    let info = try CoderRegistry.shared.info(of: data)
    #expect(info.size == listed[0].size)
    #expect(info.frameCount == listed.count)
  }

  @Test(
    arguments: [
      (nil, 128), (PixelSize(width: 20, height: 20), 32), (PixelSize(width: 16, height: 16), 16),
      // Fitted into 40x30 a 32-pixel icon shows at 30: not enlarged.
      (PixelSize(width: 40, height: 30), 32), (PixelSize(width: 1000, height: 1000), 128),
    ] as [(PixelSize?, Int)])
  func theEntryForTheTargetSizeIsChosen(target: PixelSize?, side: Int) throws {
    var options = DecodeOptions()
    options.targetSize = target
    let image = try CoderRegistry.shared.decode(data("pillow-png.ico"), options: options)
    #expect(image.pixelSize == PixelSize(width: side, height: side))
  }

  @Test func filledTheEntryMustReachBothSides() throws {
    var options = DecodeOptions()
    options.targetSize = PixelSize(width: 40, height: 30)
    options.contentMode = .aspectFill
    #expect(try CoderRegistry.shared.decode(data("pillow-png.ico"), options: options).pixelSize.width == 48)
  }

  @Test func amongEntriesOfOneSizeTheDeepestWins() throws {
    var options = DecodeOptions()
    options.targetSize = PixelSize(width: 16, height: 16)
    let data = try data("handmade.ico")
    // The 4-bit 16x16 over the 1-bit one; with no target, the 32-bit 32x32.
    #expect(
      try CoderRegistry.shared.decode(data, options: options).pixels.bytes
        == (try ICOFixture.all["handmade.ico"]!.rawPixels(3)))
    #expect(try CoderRegistry.shared.decode(data).pixelSize == PixelSize(width: 32, height: 32))
  }

  @Test func aCursorCarriesItsHotspot() throws {
    let data = try data("cursor.cur")
    let image = try CoderRegistry.shared.decode(data)
    #expect(image.metadata?.cursorHotspot == CursorHotspot(x: 5, y: 7))
    var keep = DecodeOptions()
    keep.keepsMetadata = true
    keep.targetSize = PixelSize(width: 16, height: 16)
    #expect(try CoderRegistry.shared.decode(data, options: keep).metadata?.cursorHotspot == CursorHotspot(x: 2, y: 3))
    // Icons have none.
    #expect(try CoderRegistry.shared.decode(self.data("pillow-png.ico")).metadata?.cursorHotspot == nil)
  }
}

extension ICOFixture {
  /// Entry `index`'s expected pixels as written.
  fileprivate func rawPixels(_ index: Int) throws -> [UInt8] {
    [UInt8](try TestPaths.fixture("ico/\(entries[index].rgba)"))
  }
}
