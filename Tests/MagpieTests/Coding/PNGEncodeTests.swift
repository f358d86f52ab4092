import Foundation
import Testing

@testable import Magpie

/// PNG encoding: round trips through the decoder are pixel-exact, opaque
/// images are written as RGB and others as straight-alpha RGBA.
@Suite struct PNGEncodeTests {
  /// Opaque pixels whose values encode their position.
  static func opaqueImage(width: Int, height: Int) -> Image {
    var straight: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width { straight += [UInt8(x * 7 & 0xFF), UInt8(y * 11 & 0xFF), UInt8((x ^ y) & 0xFF), 255] }
    }
    return Image(pixels: PixelBuffer(width: width, height: height, straightRGBA: straight))
  }

  /// Pixels with every kind of alpha: 0, 255 and in between.
  static func translucentImage(width: Int, height: Int) -> Image {
    var straight: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        straight += [UInt8(x * 9 & 0xFF), UInt8(255 - y * 5), UInt8(x * y & 0xFF), UInt8((x * 37 + y * 13) & 0xFF)]
      }
    }
    return Image(pixels: PixelBuffer(width: width, height: height, straightRGBA: straight))
  }

  /// The IHDR colour type byte of an encoded stream.
  static func colorType(_ data: Data) -> UInt8 { data[data.startIndex + 25] }

  @Test func opaqueRoundTripIsExactAndWritesRGB() throws {
    let image = Self.opaqueImage(width: 37, height: 23)
    #expect(image.pixels.isOpaque)
    let data = try PNGCoder().encode(image, as: .png, options: EncodeOptions())
    #expect(ImageFormat.sniff(data) == .png)
    #expect(Self.colorType(data) == 2)
    let back = try PNGCoder().decode(data, options: DecodeOptions())
    #expect(back.pixels == image.pixels)
    #expect(back.pixels.isOpaque)
  }

  @Test func straightAlphaRoundTripIsExact() throws {
    let image = Self.translucentImage(width: 29, height: 31)
    #expect(!image.pixels.isOpaque)
    let data = try PNGCoder().encode(image, as: .png, options: EncodeOptions())
    #expect(Self.colorType(data) == 6)
    let back = try PNGCoder().decode(data, options: DecodeOptions())
    // Every value the buffer holds survives the trip.
    #expect(back.pixels == image.pixels)
    #expect(back.pixels.straightRGBA() == image.pixels.straightRGBA())
  }

  @Test func writesStraightAlphaValues() throws {
    // Opaque, fully transparent (colour kept) and half-transparent pixels
    // are all stored exactly: straight in, straight out, where a
    // premultiplied round trip once turned 200 at alpha 128 into 199.
    let straight: [UInt8] = [10, 20, 30, 255, 40, 50, 60, 0, 200, 100, 50, 128]
    let image = Image(pixels: PixelBuffer(width: 3, height: 1, straightRGBA: straight))
    let back = try PNGCoder().decode(try PNGCoder().encode(image, as: .png, options: EncodeOptions()), options: .init())
    #expect(back.pixels.straightRGBA() == straight)
  }

  @Test func paddedRowsAndOnlyTheFirstFrameAreWritten() throws {
    // 3x2 opaque pixels in rows of 16 bytes (4 of padding).
    var bytes = [UInt8](repeating: 0xEE, count: 32)
    for y in 0..<2 {
      for x in 0..<3 {
        bytes.replaceSubrange((y * 16 + x * 4)..<(y * 16 + x * 4 + 4), with: [UInt8(x), UInt8(y), 9, 255])
      }
    }
    let first = PixelBuffer(width: 3, height: 2, bytesPerRow: 16, premultipliedRGBA: bytes, isOpaque: true)
    let second = PixelBuffer(width: 3, height: 2)
    let image = Image(frames: [ImageFrame(pixels: first), ImageFrame(pixels: second)])
    let back = try PNGCoder().decode(try PNGCoder().encode(image, as: .png, options: EncodeOptions()), options: .init())
    #expect(back.frames.count == 1)
    #expect(back.pixels == first)
  }

  @Test func compressionLevelIsHonoured() throws {
    let image = Self.opaqueImage(width: 64, height: 64)
    let stored = try PNGCoder().encode(image, as: .png, options: EncodeOptions(compressionLevel: 0))
    let best = try PNGCoder().encode(image, as: .png, options: EncodeOptions(compressionLevel: 9))
    #expect(stored.count > 64 * 64 * 3)
    #expect(best.count < stored.count / 2)
    #expect(try PNGCoder().decode(stored, options: DecodeOptions()).pixels == image.pixels)
    #expect(try PNGCoder().decode(best, options: DecodeOptions()).pixels == image.pixels)
    #expect {
      try PNGCoder().encode(image, as: .png, options: EncodeOptions(compressionLevel: 10))
    } throws: { ($0 as? MagpieError)?.code == .invalidArgument }
  }

  @Test func encodesOnlyPNGAndAPNG() throws {
    #expect(PNGCoder().canEncode(to: .png))
    // APNG encoding arrived with issue 11 (APNGEncoderTests).
    #expect(PNGCoder().canEncode(to: .apng))
    #expect(!PNGCoder().canEncode(to: .jpeg))
    #expect(throws: MagpieError.self) {
      try PNGCoder().encode(Self.opaqueImage(width: 2, height: 2), as: .jpeg, options: EncodeOptions())
    }
    #expect(throws: MagpieError.self) {
      try PNGCoder().encode(Image(pixels: PixelBuffer(width: 0, height: 0)), as: .png, options: EncodeOptions())
    }
    #expect(CoderRegistry().encoder(for: .png) is PNGCoder)
  }
}
