import Testing

@testable import Magpie

@Suite struct PixelSizeTests {
  @Test func fittingKeepsAspectAndNeverUpscales() {
    #expect(
      PixelSize(width: 4000, height: 3000).fitting(in: PixelSize(width: 256, height: 256))
        == PixelSize(width: 256, height: 192))
    #expect(
      PixelSize(width: 3000, height: 4000).fitting(in: PixelSize(width: 256, height: 256))
        == PixelSize(width: 192, height: 256))
    #expect(
      PixelSize(width: 100, height: 50).fitting(in: PixelSize(width: 256, height: 256))
        == PixelSize(width: 100, height: 50))
    #expect(
      PixelSize(width: 10000, height: 1).fitting(in: PixelSize(width: 256, height: 256))
        == PixelSize(width: 256, height: 1))
  }

  @Test func pixelCountSaturates() {
    #expect(PixelSize(width: Int.max, height: 2).pixelCount == Int.max)
  }

  @Test func shrinkDenominatorCoversTheTarget() {
    let options = DecodeOptions(targetSize: PixelSize(width: 256, height: 256))
    let photo = PixelSize(width: 4000, height: 3000)
    #expect(options.shrinkDenominator(for: photo, orientation: .up) == 8)
    #expect(options.shrinkDenominator(for: PixelSize(width: 1200, height: 800), orientation: .up) == 4)
    #expect(options.shrinkDenominator(for: PixelSize(width: 300, height: 300), orientation: .up) == 1)
    // A quarter-turned source still covers the target once upright.
    // A wide box: upright the 4000x1000 source needs 2000x500 (half size);
    // turned a quarter it shows 1000x4000 and needs only 125x500.
    let wide = DecodeOptions(targetSize: PixelSize(width: 2000, height: 500))
    #expect(wide.shrinkDenominator(for: PixelSize(width: 4000, height: 1000), orientation: .up) == 2)
    #expect(wide.shrinkDenominator(for: PixelSize(width: 4000, height: 1000), orientation: .right) == 8)
  }

  @Test func scaleFromFileNames() {
    #expect(Image.scale(fromFileName: "icon@2x.png") == 2)
    #expect(Image.scale(fromFileName: "dir/icon@3x.v2.png") == 1)
    #expect(Image.scale(fromFileName: "dir/icon.v2@3x.png") == 3)
    #expect(Image.scale(fromFileName: "icon.png") == 1)
  }
}
