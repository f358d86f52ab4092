import Testing

@testable import Magpie

/// Rounded corners (anti-aliased, with a background or transparency) and
/// borders.
@Suite struct RoundCornerAndBorderTests {
  typealias S = ProcessingTestSupport
  let options = ImageProcessingOptions()
  let red = SIMD4<UInt8>(255, 0, 0, 255)

  private func run(_ processor: some ImageProcessor, _ pixels: PixelBuffer) throws -> PixelBuffer {
    try processor.process(item: .image(Image(pixels: pixels)), options: options).pixels
  }

  @Test func cornersBecomeTransparentWithSoftEdgesAndNoDarkFringe() throws {
    let result = try run(ImageProcessors.RoundCorner(radius: 6), S.solid(20, 16, red))
    #expect(!result.isOpaque)
    for (x, y) in [(0, 0), (19, 0), (0, 15), (19, 15)] { #expect(result[x, y] == .zero, "(\(x), \(y))") }
    for (x, y) in [(10, 8), (10, 0), (0, 8), (19, 8), (10, 15), (6, 0), (0, 6)] {
      #expect(result[x, y] == red, "(\(x), \(y)) is outside the corners")
    }
    // The arc is anti-aliased: some pixels are partly covered, and they are
    // still pure red underneath (premultiplied), not darkened.
    var partial = 0
    for y in 0..<6 {
      for x in 0..<6 {
        let p = result[x, y]
        if p[3] > 0 && p[3] < 255 {
          partial += 1
          #expect(p[0] == p[3] && p[1] == 0 && p[2] == 0)
        }
        // Symmetric corners.
        #expect(result[19 - x, y] == p)
        #expect(result[x, 15 - y] == p)
      }
    }
    #expect(partial >= 4)
  }

  @Test func onlyTheChosenCornersAreRounded() throws {
    let processor = ImageProcessors.RoundCorner(radius: 5, corners: [.topLeft, .bottomRight])
    let result = try run(processor, S.solid(12, 12, red))
    #expect(result[0, 0] == .zero)
    #expect(result[11, 11] == .zero)
    #expect(result[11, 0] == red)
    #expect(result[0, 11] == red)
  }

  @Test func aBackgroundFillsTheCornersAndKeepsTheImageOpaque() throws {
    let blue = RGBAColor(red: 0, green: 0, blue: 255)
    let result = try run(ImageProcessors.RoundCorner(radius: 4, background: blue), S.solid(10, 10, red))
    #expect(result.isOpaque)
    #expect(result[0, 0] == SIMD4(0, 0, 255, 255))
    #expect(result[5, 5] == red)
  }

  @Test func aRadiusBeyondHalfTheSideMakesACircle() throws {
    let result = try run(ImageProcessors.RoundCorner(radius: 100), S.solid(9, 9, red))
    #expect(result[4, 4] == red)
    #expect(result[4, 0][3] > 128)
    #expect(result[0, 0] == .zero)
    #expect(result[0, 1] == .zero)
    #expect(result[1, 1][3] > 128)
  }

  @Test func borderPaintsTheOuterBand() throws {
    let blue = RGBAColor(red: 0, green: 0, blue: 255)
    let result = try run(ImageProcessors.Border(width: 2, color: blue), S.solid(10, 8, red))
    for y in 0..<8 {
      for x in 0..<10 {
        let inBand = x < 2 || x >= 8 || y < 2 || y >= 6
        #expect(result[x, y] == (inBand ? SIMD4(0, 0, 255, 255) : red), "(\(x), \(y))")
      }
    }
    // A translucent border tints: half blue over red.
    let tinted = try run(
      ImageProcessors.Border(width: 1, color: RGBAColor(red: 0, green: 0, blue: 255, alpha: 128)), S.solid(3, 3, red))
    #expect(tinted[0, 0] == SIMD4(127, 0, 128, 255))
    #expect(tinted[1, 1] == red)
  }
}
