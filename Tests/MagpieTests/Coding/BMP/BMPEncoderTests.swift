import Foundation
import Testing

@testable import Magpie

/// BMPs Magpie writes read back in Pillow (Debian's python3-pil, which
/// `make test` installs) with the same pixels, and in Magpie.
@Suite struct BMPEncoderTests {
  /// Pillow's RGBA pixels of `data`.
  private func pillowPixels(_ data: Data) throws -> [UInt8] {
    let dir = try TemporaryDirectory()
    let input = dir.path("in.bmp")
    let output = dir.path("out.rgba")
    try data.write(to: URL(fileURLWithPath: input))
    try ReferenceTool.pillow(
      "open(sys.argv[2], 'wb').write(Image.open(sys.argv[1]).convert('RGBA').tobytes())", [input, output])
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
  }

  @Test(arguments: [false, true]) func pillowReadsWhatMagpieWrites(alpha: Bool) throws {
    let pixels = PixelBuffer.testPattern(width: 13, height: 7, alpha: alpha)
    let data = try CoderRegistry.shared.encode(Image(pixels: pixels), as: .bmp)
    #expect(ImageFormat.sniff(data) == .bmp)
    // 24 bits when opaque, 32 with alpha.
    #expect(data[28] == (alpha ? 32 : 24))
    #expect(try pillowPixels(data) == pixels.bytes)
    let back = try CoderRegistry.shared.decode(data)
    #expect(back.pixels == pixels)
    #expect(back.pixels.isOpaque == !alpha)
  }

  @Test func premultipliedPixelsAreWrittenStraight() throws {
    let premultiplied = PixelBuffer.testPattern(width: 5, height: 3, alpha: true).premultiplied()
    let data = try BMPCoder().encode(Image(pixels: premultiplied), as: .bmp, options: EncodeOptions())
    let back = try BMPCoder().decode(data, options: DecodeOptions())
    #expect(back.pixels.alphaRepresentation == .straight)
    #expect(back.pixels.bytes == premultiplied.straightRGBA())
  }

  @Test func aProfileIsEmbeddedInAV5Header() throws {
    let profile = try TestPaths.fixture("bmp/v5-32-icc.icc")
    var image = Image(pixels: PixelBuffer.testPattern(width: 4, height: 4, alpha: false))
    image.colorProfile = ColorProfile(iccData: profile)
    let data = try CoderRegistry.shared.encode(image, as: .bmp)
    #expect(data[14] == 124)
    var options = DecodeOptions()
    options.colorManagement = .preserve
    let back = try CoderRegistry.shared.decode(data, options: options)
    #expect(back.colorProfile?.iccData == profile)
    #expect(back.pixels == image.pixels)
  }
}
