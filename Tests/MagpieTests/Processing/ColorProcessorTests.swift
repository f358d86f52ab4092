import Testing

@testable import Magpie

/// Tint, grayscale, colour controls and overlay: values computed from the
/// definitions, on small synthetic images.
@Suite struct ColorProcessorTests {
  typealias S = ProcessingTestSupport
  let options = ImageProcessingOptions()

  private func run(_ processor: some ImageProcessor, _ pixels: PixelBuffer) throws -> PixelBuffer {
    try processor.process(item: .image(Image(pixels: pixels)), options: options).pixels
  }

  @Test func tintOfWhiteIsTheTintColourAndBlackStaysBlack() throws {
    let white = S.solid(4, 3, SIMD4(255, 255, 255, 255))
    let black = S.solid(4, 3, SIMD4(0, 0, 0, 255))
    for value in stride(from: 0, through: 255, by: 17) {
      let color = RGBAColor(red: UInt8(value), green: UInt8(255 - value), blue: UInt8(value / 2))
      let tint = ImageProcessors.Tint(color: color)
      #expect(try run(tint, white) == S.solid(4, 3, SIMD4(color.red, color.green, color.blue, 255)), "\(color)")
      #expect(try run(tint, black) == black)
    }
  }

  @Test func tintKeepsAlphaAndScalesWithTheTintsAlpha() throws {
    let halfWhite = S.solid(2, 2, SIMD4(128, 128, 128, 128))
    let red = ImageProcessors.Tint(color: RGBAColor(red: 255, green: 0, blue: 0))
    #expect(try run(red, halfWhite) == S.solid(2, 2, SIMD4(128, 0, 0, 128)))
    // Half-strength red tint of white: green and blue halve.
    let weak = ImageProcessors.Tint(color: RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
    let result = try run(weak, S.solid(2, 2, SIMD4(255, 255, 255, 255)))
    #expect(result[0, 0] == SIMD4(255, 127, 127, 255))
    let none = ImageProcessors.Tint(color: RGBAColor(red: 255, green: 0, blue: 0, alpha: 0))
    #expect(try run(none, halfWhite) == halfWhite)
  }

  @Test func grayscaleUsesRec601Luma() throws {
    let cases: [(SIMD4<UInt8>, UInt8)] = [
      (SIMD4(255, 0, 0, 255), 76), (SIMD4(0, 255, 0, 255), 150), (SIMD4(0, 0, 255, 255), 29),
      (SIMD4(255, 255, 255, 255), 255), (SIMD4(0, 0, 0, 255), 0), (SIMD4(100, 150, 200, 255), 141),
    ]
    for (pixel, gray) in cases {
      let result = try run(ImageProcessors.BlackWhite(), S.solid(3, 3, pixel))
      #expect(result[1, 1] == SIMD4(gray, gray, gray, 255), "\(pixel)")
    }
    // Premultiplied: half-transparent white stays half-transparent white.
    let half = try run(ImageProcessors.BlackWhite(), S.solid(1, 1, SIMD4(128, 128, 128, 128)))
    #expect(half[0, 0] == SIMD4(128, 128, 128, 128))
  }

  @Test func colorControlsDefaultsChangeNothingAndExtremesSaturate() throws {
    let source = S.make(16, 16) { x, y in SIMD4(UInt8(x * 16), UInt8(y * 16), UInt8((x + y) * 8), 255) }
    #expect(try run(ImageProcessors.ColorControls(), source) == source)
    #expect(
      try run(ImageProcessors.ColorControls(saturation: 0), source) == (try run(ImageProcessors.BlackWhite(), source)))
    #expect(try run(ImageProcessors.ColorControls(brightness: 1), source) == S.solid(16, 16, SIMD4(255, 255, 255, 255)))
    #expect(try run(ImageProcessors.ColorControls(brightness: -1), source) == S.solid(16, 16, SIMD4(0, 0, 0, 255)))
    #expect(try run(ImageProcessors.ColorControls(contrast: 0), source) == S.solid(16, 16, SIMD4(128, 128, 128, 255)))
    // Contrast 1.5 scales the distance from 127.5 by 1.5: 60 -> 26.25, 160 -> 176.25, 128 -> 128.25.
    let contrast = try run(ImageProcessors.ColorControls(contrast: 1.5), S.solid(1, 1, SIMD4(60, 160, 128, 255)))
    #expect(contrast[0, 0] == SIMD4(26, 176, 128, 255))
  }

  @Test func colorControlsStayWithinAlpha() throws {
    let half = S.solid(2, 2, SIMD4(60, 30, 10, 128))
    let bright = try run(ImageProcessors.ColorControls(brightness: 0.8, contrast: 1.5, saturation: 2), half)
    #expect(S.isValidPremultiplied(bright))
    #expect(bright[0, 0][3] == 128)
    #expect(bright[0, 0][0] == 128)
  }

  @Test func overlayMovesColoursTowardTheOverlayInsideTheImage() throws {
    let source = S.make(4, 1) { x, _ in
      [SIMD4<UInt8>(0, 0, 0, 255), SIMD4(255, 255, 255, 255), SIMD4(0, 0, 0, 0), SIMD4(64, 0, 0, 128)][x]
    }
    let red = RGBAColor(red: 255, green: 0, blue: 0)
    #expect(try run(ImageProcessors.Overlay(color: red, fraction: 0), source) == source)
    let full = try run(ImageProcessors.Overlay(color: red, fraction: 1), source)
    #expect(full[0, 0] == SIMD4(255, 0, 0, 255))
    #expect(full[1, 0] == SIMD4(255, 0, 0, 255))
    #expect(full[2, 0] == SIMD4(0, 0, 0, 0))
    #expect(full[3, 0] == SIMD4(128, 0, 0, 128))
    let half = try run(ImageProcessors.Overlay(color: .white, fraction: 0.5), source)
    #expect(half[0, 0] == SIMD4(128, 128, 128, 255))
    #expect(half[1, 0] == SIMD4(255, 255, 255, 255))
  }
}
