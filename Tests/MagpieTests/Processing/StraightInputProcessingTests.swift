import Testing

@testable import Magpie

/// Processors given straight pixels, as decoders deliver them: the ones that
/// blend neighbours premultiply inside their first pass and must give what
/// they give for the same pixels premultiplied beforehand; the ones that map
/// each pixel on its own keep straight pixels and their exact colour.
@Suite struct StraightInputProcessingTests {
  /// Every alpha value in each row, over colours that change along both
  /// axes (so low-alpha pixels carry colours that premultiplying would lose).
  static func sweep(width: Int = 256, height: Int = 64) -> PixelBuffer {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        bytes += [
          UInt8((x * 7 + y * 3) & 0xFF), UInt8((255 - x + y * 5) & 0xFF), UInt8((x * y) & 0xFF), UInt8(x & 0xFF),
        ]
      }
    }
    return PixelBuffer(width: width, height: height, straightRGBA: bytes)
  }

  /// Targets that exercise the row pass first, the column pass first, and
  /// the box reduce before either.
  @Test(arguments: [
    PixelSize(width: 100, height: 60), PixelSize(width: 250, height: 20), PixelSize(width: 60, height: 16),
    PixelSize(width: 300, height: 90),
  ])
  func resamplingPremultipliesInsideItsPassesExactlyAsBefore(target: PixelSize) {
    let straight = Self.sweep()
    let fused = Resampler.resample(straight, to: target)
    let separate = Resampler.resample(straight.premultiplied(), to: target)
    #expect(fused.alphaRepresentation == .premultiplied)
    #expect(fused == separate)
  }

  @Test func boxReducePremultipliesBlockRowsExactlyAsBefore() {
    let straight = Self.sweep()
    for (fx, fy) in [(2, 2), (3, 2), (4, 4), (1, 3)] {
      let fused = Resampler.boxReduce(straight, factorX: fx, factorY: fy)
      #expect(fused.alphaRepresentation == .premultiplied)
      #expect(fused == Resampler.boxReduce(straight.premultiplied(), factorX: fx, factorY: fy), "\(fx)x\(fy)")
    }
  }

  @Test func grayscaleKeepsStraightPixelsAndTheirAlpha() throws {
    let straight = Self.sweep()
    let gray = try ImageProcessors.BlackWhite().process(item: .image(Image(pixels: straight)), options: .init())
    #expect(gray.pixels.alphaRepresentation == .straight)
    let source = straight.straightRGBA()
    let out = gray.pixels.straightRGBA()
    for i in stride(from: 0, to: source.count, by: 4) {
      // Rec. 601 luma of the stored colour, whatever the alpha (1 level for
      // the 12-bit fixed-point weights).
      let luma = 0.299 * Double(source[i]) + 0.587 * Double(source[i + 1]) + 0.114 * Double(source[i + 2])
      #expect(abs(Double(out[i]) - luma) <= 1, "pixel \(i / 4)")
      #expect(out[i] == out[i + 1] && out[i] == out[i + 2])
      #expect(out[i + 3] == source[i + 3])
    }
  }

  @Test func roundCornersOnlyTouchCornerAlphaOfStraightPixels() throws {
    let straight = Self.sweep(width: 64, height: 64)
    let processor = ImageProcessors.RoundCorner(radius: 16)
    let rounded = try processor.process(item: .image(Image(pixels: straight)), options: .init())
    #expect(rounded.pixels.alphaRepresentation == .straight)
    let source = straight.straightRGBA()
    let out = rounded.pixels.straightRGBA()
    let coverage = ImageProcessors.RoundCorner.coverage(radius: 16, extent: 16)
    for y in 0..<64 {
      for x in 0..<64 {
        let i = (y * 64 + x) * 4
        // Colour is never touched; alpha only inside the corner squares.
        #expect(Array(out[i..<(i + 3)]) == Array(source[i..<(i + 3)]), "(\(x), \(y))")
        let cx = x < 16 ? x : (x >= 48 ? 63 - x : -1)
        let cy = y < 16 ? y : (y >= 48 ? 63 - y : -1)
        let c = cx >= 0 && cy >= 0 ? UInt32(coverage[cy * 16 + cx]) : 255
        #expect(out[i + 3] == PixelBuffer.multiplyDivide255(UInt32(source[i + 3]), c), "(\(x), \(y))")
      }
    }
  }

  @Test func roundCornersOverABackgroundMatchThePremultipliedPath() throws {
    let straight = Self.sweep(width: 64, height: 64)
    let processor = ImageProcessors.RoundCorner(radius: 20, background: RGBAColor(red: 10, green: 200, blue: 30))
    let fromStraight = try processor.process(item: .image(Image(pixels: straight)), options: .init())
    let fromPremultiplied = try processor.process(
      item: .image(Image(pixels: straight.premultiplied())), options: .init())
    // The same shown pixels, within the one rounding step the straight
    // result takes to hold its colour.
    let a = fromStraight.pixels.premultiplied().straightRGBA()
    let b = fromPremultiplied.pixels.straightRGBA()
    let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    #expect(worst <= 1, "differs by \(worst)")
  }

  @Test func bordersAndBlurOnStraightInputGiveThePremultipliedResult() throws {
    let straight = Self.sweep(width: 80, height: 40)
    let border = ImageProcessors.Border(width: 3, color: RGBAColor(red: 200, green: 0, blue: 0, alpha: 128))
    let framed = try border.process(item: .image(Image(pixels: straight)), options: .init())
    let framedPremultiplied = try border.process(
      item: .image(Image(pixels: straight.premultiplied())), options: .init())
    #expect(framed.pixels == framedPremultiplied.pixels)
    #expect(GaussianBlur.blur(straight, sigma: 3) == GaussianBlur.blur(straight.premultiplied(), sigma: 3))
  }
}
