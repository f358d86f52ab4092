import Testing

@testable import Magpie

/// The alpha representation a buffer states, and the calls that move
/// between straight and premultiplied pixels.
@Suite struct PixelBufferAlphaTests {
  /// Every alpha value 0...255, each over a colour that differs per pixel.
  private static let sweep: [UInt8] = {
    var bytes: [UInt8] = []
    for a in 0..<256 { bytes += [UInt8(a), UInt8(255 - a), UInt8((a * 37) & 0xFF), UInt8(a)] }
    return bytes
  }()

  @Test func straightBuffersKeepEveryStoredValue() {
    let buffer = PixelBuffer(width: 256, height: 1, straightRGBA: Self.sweep)
    #expect(buffer.alphaRepresentation == .straight)
    #expect(!buffer.isOpaque)
    #expect(buffer[6, 0] == SIMD4(6, 249, UInt8((6 * 37) & 0xFF), 6))
    #expect(buffer.straightRGBA() == Self.sweep)
  }

  @Test func premultipliedRoundsEachChannelOnce() {
    let buffer = PixelBuffer(width: 256, height: 1, straightRGBA: Self.sweep).premultiplied()
    #expect(buffer.alphaRepresentation == .premultiplied)
    for x in 0..<256 {
      let a = Double(x)
      let expected = (0..<3).map { UInt8((Double(Self.sweep[x * 4 + $0]) * a / 255).rounded()) }
      let pixel = buffer[x, 0]
      #expect([pixel[0], pixel[1], pixel[2]] == expected, "alpha \(x)")
      #expect(pixel[3] == UInt8(x))
    }
    // Premultiplying again changes nothing.
    #expect(buffer.premultiplied() == buffer)
  }

  @Test func opaqueBuffersOnlyChangeTheirLabel() {
    let straight: [UInt8] = (0..<16).map { $0 % 4 == 3 ? 255 : UInt8($0 * 9) }
    let buffer = PixelBuffer(width: 2, height: 2, straightRGBA: straight)
    #expect(buffer.isOpaque)
    let premultiplied = buffer.premultiplied()
    #expect(premultiplied.alphaRepresentation == .premultiplied)
    #expect(premultiplied.bytes == buffer.bytes)
    // Opaque pixels are the same in either representation.
    #expect(premultiplied == buffer)
  }

  @Test func equalityCountsTheRepresentationOfTransparentPixels() {
    let straight: [UInt8] = [200, 100, 50, 128]
    let a = PixelBuffer(width: 1, height: 1, straightRGBA: straight)
    let b = PixelBuffer(width: 1, height: 1, bytesPerRow: 4, premultipliedRGBA: straight)
    #expect(a != b)
    #expect(a.premultiplied() != b)
    #expect(
      a.premultiplied() == PixelBuffer(width: 1, height: 1, bytesPerRow: 4, premultipliedRGBA: [100, 50, 25, 128]))
  }

  @Test func paddedRowsPremultiplyAndExportWithoutThePadding() {
    // Two rows of one pixel, 8 bytes apart; the padding holds junk.
    let bytes: [UInt8] = [200, 100, 50, 128, 9, 9, 9, 9, 10, 20, 30, 0, 9, 9, 9, 9]
    let buffer = PixelBuffer(width: 1, height: 2, bytesPerRow: 8, bytes: bytes, alpha: .straight)
    #expect(buffer.straightRGBA() == [200, 100, 50, 128, 10, 20, 30, 0])
    let premultiplied = buffer.premultiplied()
    #expect(premultiplied[0, 0] == SIMD4(100, 50, 25, 128))
    #expect(premultiplied[0, 1] == SIMD4(0, 0, 0, 0))
  }

  @Test func drawingPremultipliesBothSides() {
    var canvas = PixelBuffer(width: 1, height: 1, straightRGBA: [0, 0, 255, 255])
    canvas.draw(PixelBuffer(width: 1, height: 1, straightRGBA: [255, 0, 0, 128]), atX: 0, y: 0)
    #expect(canvas.alphaRepresentation == .premultiplied)
    // Half red over opaque blue: red 128, blue 255 * 127 / 255.
    #expect(canvas[0, 0] == SIMD4(128, 0, 127, 255))
  }

  @Test func processorsStateThatTheyReturnPremultipliedPixels() {
    let buffer = PixelBuffer(width: 256, height: 1, straightRGBA: Self.sweep)
    let resized = Resampler.resample(buffer, to: PixelSize(width: 64, height: 1))
    #expect(resized.alphaRepresentation == .premultiplied)
    let blurred = GaussianBlur.blur(buffer, sigma: 2)
    #expect(blurred.alphaRepresentation == .premultiplied)
    // Geometry keeps what it was given.
    #expect(buffer.cropped(x: 1, y: 0, width: 10, height: 1).alphaRepresentation == .straight)
    #expect(buffer.cropped(x: 1, y: 0, width: 10, height: 1).straightRGBA() == Array(Self.sweep[4..<44]))
  }
}
