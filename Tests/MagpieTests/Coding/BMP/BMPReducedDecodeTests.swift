import Foundation
import Testing

@testable import Magpie

/// A BMP decoded for a small target is shrunk while its rows are read, to
/// the block averages Pillow's `reduce` gives (opaque) or the alpha-weighted
/// averages of the full decode (with alpha).
@Suite struct BMPReducedDecodeTests {
  private func options(_ target: PixelSize) -> DecodeOptions {
    var options = DecodeOptions()
    options.targetSize = target
    return options
  }

  /// Pillow's `reduce(factor)` of the BMP `data`, as RGBA.
  private func pillowReduce(_ data: Data, factor: Int) throws -> [UInt8] {
    let dir = try TemporaryDirectory()
    try data.write(to: URL(fileURLWithPath: dir.path("in.bmp")))
    try ReferenceTool.pillow(
      "open(sys.argv[2], 'wb').write(Image.open(sys.argv[1]).reduce(int(sys.argv[3])).convert('RGBA').tobytes())",
      [dir.path("in.bmp"), dir.path("out.rgba"), String(factor)])
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path("out.rgba"))))
  }

  @Test func anOpaqueBMPShrinksToPillowsBlockAverages() throws {
    let data = try BMPEncoder.encode(PixelBuffer.testPattern(width: 203, height: 150, alpha: false), icc: nil)
    // 50x37 is covered by a quarter (51x38), not by an eighth.
    let image = try BMPCoder().decode(data, options: options(PixelSize(width: 50, height: 37)))
    #expect(image.pixelSize == PixelSize(width: 51, height: 38))
    #expect(image.pixels.isOpaque)
    let reference = try pillowReduce(data, factor: 4)
    let worst = zip(image.pixels.straightRGBA(), reference).map { abs(Int($0) - Int($1)) }.max()
    #expect(worst ?? .max <= 1, "Pillow's reduce rounds through a fixed-point reciprocal")
  }

  @Test func alphaWeightsTheAverage() throws {
    let full = PixelBuffer.testPattern(width: 37, height: 21, alpha: true)
    let data = try BMPEncoder.encode(full, icc: nil)
    let image = try BMPCoder().decode(data, options: options(PixelSize(width: 18, height: 10)))
    #expect(image.pixelSize == PixelSize(width: 19, height: 11))
    for oy in 0..<11 {
      for ox in 0..<19 {
        var sums = [0, 0, 0, 0]
        var count = 0
        for y in (2 * oy)..<min(21, 2 * oy + 2) {
          for x in (2 * ox)..<min(37, 2 * ox + 2) {
            let p = full[x, y]
            for c in 0..<3 { sums[c] += Int(p[c]) * Int(p[3]) }
            sums[3] += Int(p[3])
            count += 1
          }
        }
        let a = (sums[3] + count / 2) / count
        let rgb = (0..<3).map { sums[3] == 0 ? 0 : (sums[$0] + sums[3] / 2) / sums[3] }
        let got = image.pixels[ox, oy]
        #expect([Int(got[0]), Int(got[1]), Int(got[2]), Int(got[3])] == rgb + [a], "(\(ox), \(oy))")
      }
    }
  }

  @Test func zeroFourthBytesStayOpaqueWhenShrunk() throws {
    let data = try ReferenceFixture.data("bmp", "info-32-noalpha.bmp")
    let image = try BMPCoder().decode(data, options: options(PixelSize(width: 3, height: 2)))
    #expect(image.pixelSize == PixelSize(width: 4, height: 2))
    #expect(image.pixels.isOpaque)
  }

  @Test func partialAndRunLengthImagesDecodeWhole() throws {
    let target = options(PixelSize(width: 3, height: 2))
    for name in ["truncated-pixels.bmp", "rle8.bmp"] {
      #expect(try BMPCoder().decode(ReferenceFixture.data("bmp", name), options: target).pixelSize.width == 13)
    }
  }
}
