import Foundation
import Testing

@testable import Magpie

/// Exact pixel values for the cases the PNG coder converts: 16-bit
/// reduction, palette + tRNS, gray + alpha; opacity, eXIf orientation,
/// limits and options. Expected values are computed from the sources the
/// fixture script wrote, by the rules stated here.
@Suite struct PNGDecodeTests {
  private func decode(_ fixture: String, _ options: DecodeOptions = DecodeOptions()) throws -> Image {
    try PNGCoder().decode(try TestPaths.fixture("png/" + fixture), options: options)
  }

  /// A PNG stream from chunks, CRCs computed.
  static func stream(_ chunks: [(String, [UInt8])]) -> Data {
    var bytes = PNGChunkReader.signature
    for (type, data) in chunks {
      let typeBytes = Array(type.utf8)
      bytes += bigEndian(UInt32(data.count)) + typeBytes + data
      bytes += bigEndian(CRC32.checksum(typeBytes + data))
    }
    return Data(bytes)
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }

  @Test func sixteenBitGrayRoundsToNearest() throws {
    // Source values 0, 128, 129, 32767, 32896, 65280, 65408, 65535; the
    // rule is round(v / 257). Keeping the high byte (png_set_strip_16)
    // would give 0 for 129 and 255 for 65280.
    let image = try decode("gray16.png")
    let expected: [UInt8] = [0, 0, 1, 127, 128, 254, 255, 255]
    #expect(image.pixelSize == PixelSize(width: 8, height: 1))
    #expect(image.pixels.isOpaque)
    for (x, value) in expected.enumerated() {
      #expect(image.pixels[x, 0] == SIMD4(value, value, value, 255), "pixel \(x)")
    }
  }

  @Test func sixteenBitRGBAScalesToNearestAndStaysStraight() throws {
    // (65535, 32768, 257, 32768) -> (255, 128, 1, 128), each round(v / 257);
    // (65280, 129, 0, 65535) -> (254, 1, 0, 255).
    let image = try decode("rgba16.png")
    #expect(image.pixels.straightRGBA() == [255, 128, 1, 128, 254, 1, 0, 255])
    #expect(!image.pixels.isOpaque)
  }

  @Test func paletteWithTransparency() throws {
    // Palette (255,0,0,255), (0,255,0,128), (0,0,255,0), (10,20,30) opaque;
    // indices 0, 1, 2, 3 at two bits each. Straight, as stored: the
    // alpha-0 entry keeps its blue.
    let image = try decode("palette_trns.png")
    #expect(image.pixels.straightRGBA() == [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 255])
    #expect(!image.pixels.isOpaque)
  }

  @Test func grayWithAlpha() throws {
    // (200, 255), (100, 128), (50, 0): gray spreads to RGB, alpha as stored.
    let image = try decode("gray_alpha.png")
    #expect(image.pixels.straightRGBA() == [200, 200, 200, 255, 100, 100, 100, 128, 50, 50, 50, 0])
    #expect(!image.pixels.isOpaque)
  }

  @Test(.enabled(if: TestPaths.pngSuite != nil, "\(TestPaths.missing("pngsuite"))"))  // PngSuite conformance
  func opacityFollowsColourTypeAndTransparency() throws {
    let suite = try #require(TestPaths.pngSuite)
    func isOpaque(_ name: String) throws -> Bool {
      try PNGCoder().decode(Data(contentsOf: suite.appendingPathComponent(name)), options: DecodeOptions()).pixels
        .isOpaque
    }
    #expect(try isOpaque("basn2c08.png"))  // RGB
    #expect(try isOpaque("basn0g01.png"))  // 1-bit gray
    #expect(try isOpaque("basn3p08.png"))  // palette without tRNS
    #expect(try !isOpaque("basn6a08.png"))  // RGBA
    #expect(try !isOpaque("tbrn2c08.png"))  // RGB + tRNS colour key
    #expect(try !isOpaque("tbbn3p08.png"))  // palette + tRNS
  }

  @Test func exifOrientationBeforeImageDataIsApplied() throws {
    // Stored 3x2, pixel (x, y) = (x * 80, y * 120, 7); orientation 6 shows
    // it turned 90 degrees clockwise: the displayed top row is the stored
    // left column read bottom to top.
    let image = try decode("exif_orientation6.png")
    #expect(image.orientation == .right)
    #expect(image.pixelSize == PixelSize(width: 2, height: 3))
    for oy in 0..<3 {
      for ox in 0..<2 {
        let (sx, sy) = (oy, 1 - ox)
        #expect(image.pixels[ox, oy] == SIMD4(UInt8(sx * 80), UInt8(sy * 120), 7, 255), "(\(ox), \(oy))")
      }
    }
    let stored = try decode("exif_orientation6.png", DecodeOptions(appliesOrientation: false))
    #expect(stored.orientation == .right)
    #expect(stored.pixelSize == PixelSize(width: 3, height: 2))
    #expect(stored.pixels[2, 1] == SIMD4(160, 120, 7, 255))

    let info = try PNGCoder().info(of: try TestPaths.fixture("png/exif_orientation6.png"))
    #expect(info.orientation == .right)
    #expect(info.size == PixelSize(width: 2, height: 3))
  }

  @Test func exifAfterImageDataIsIgnoredLikeBrowsers() throws {
    let image = try decode("exif_after_idat.png")
    #expect(image.orientation == .up)
    #expect(image.pixelSize == PixelSize(width: 3, height: 2))
  }

  @Test func hugeDeclaredSizeFailsBeforeDecoding() throws {
    // The IDAT holds no valid zlib stream: reaching the pixels would fail
    // as corrupt, so .imageTooLarge shows the size was checked first.
    let ihdr = Self.bigEndian(100_000) + Self.bigEndian(100_000) + [8, 6, 0, 0, 0]
    let data = Self.stream([("IHDR", ihdr), ("IDAT", [1, 2, 3, 4]), ("IEND", [])])
    do {
      _ = try PNGCoder().decode(data, options: DecodeOptions())
      Issue.record("a 100000x100000 PNG decoded")
    } catch {
      #expect(error.code == .imageTooLarge)
      #expect(error.reason.contains("100000x100000"), "\(error.reason)")
    }
    // Header-level info still answers.
    let info = try PNGCoder().info(of: data)
    #expect(info.size == PixelSize(width: 100_000, height: 100_000))
    #expect(info.frameCount == 1)
  }

  @Test func pixelLimitIsConfigurable() throws {
    let data = try TestPaths.fixture("png/gray16.png")
    #expect(throws: MagpieError.self) { try PNGCoder().decode(data, options: DecodeOptions(maxPixelCount: 7)) }
    #expect(try PNGCoder().decode(data, options: DecodeOptions(maxPixelCount: 8)).pixelSize.width == 8)
  }

  @Test func optionsAndMetadata() throws {
    let data = try TestPaths.fixture("png/gray_alpha.png")
    let image = try PNGCoder().decode(data, options: DecodeOptions(keepsOriginalData: true, scale: 2))
    #expect(image.format == .png)
    #expect(image.scale == 2)
    #expect(image.originalData == data)
    #expect(image.loopCount == 0)
    #expect(image.frames.count == 1 && image.frames[0].duration == .zero)
    #expect(try PNGCoder().decode(data, options: DecodeOptions()).originalData == nil)

    let info = try PNGCoder().info(of: data)
    #expect(
      info
        == ImageInfo(format: .png, size: PixelSize(width: 3, height: 1), byteCount: data.count))
  }

  @Test func registryPicksThePNGCoder() throws {
    let data = try TestPaths.fixture("png/gray_alpha.png")
    #expect(CoderRegistry().decoder(for: data) is PNGCoder)
    #expect(try CoderRegistry().decode(data).pixels[0, 0] == SIMD4(200, 200, 200, 255))
    #expect(PNGCoder().canDecode(data, format: .apng))
    #expect(!PNGCoder().canDecode(data, format: .gif))
  }

  @Test func headerOnlyFileIsTruncated() throws {
    let ihdr = Self.bigEndian(4) + Self.bigEndian(4) + [8, 2, 0, 0, 0]
    let data = Self.stream([("IHDR", ihdr)])
    #expect {
      try PNGCoder().decode(data, options: DecodeOptions())
    } throws: { ($0 as? MagpieError)?.code == .truncatedData }
  }
}
