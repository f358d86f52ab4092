import Foundation
import Testing

@testable import Magpie

/// The three-box Gaussian against a true Gaussian computed here in
/// `Double`, and its exact properties.
@Suite struct BlurTests {
  typealias S = ProcessingTestSupport
  let options = ImageProcessingOptions()

  private func blur(_ pixels: PixelBuffer, _ radius: Double) throws -> PixelBuffer {
    try ImageProcessors.Blur(radius: radius).process(item: .image(Image(pixels: pixels)), options: options)
      .pixels
  }

  @Test(arguments: [0.5, 1, 3, 10, 40])
  func aConstantImageStaysTheSameConstant(radius: Double) throws {
    for color in [SIMD4<UInt8>(37, 200, 99, 255), SIMD4(10, 60, 100, 120), SIMD4(0, 0, 0, 0)] {
      let flat = S.solid(45, 30, color)
      #expect(try blur(flat, radius) == flat, "\(color) radius \(radius)")
    }
  }

  @Test func radiusZeroChangesNothing() throws {
    let source = S.make(9, 9) { x, y in SIMD4(UInt8(x * 20), UInt8(y * 20), 0, 255) }
    #expect(try blur(source, 0) == source)
  }

  /// A true Gaussian blur with edges repeated, in `Double`, one channel.
  private func trueGaussian(_ source: PixelBuffer, sigma: Double, channel: Int) -> [[Double]] {
    let r = Int((sigma * 4).rounded(.up))
    var kernel = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let total = kernel.reduce(0, +)
    kernel = kernel.map { $0 / total }
    let (w, h) = (source.width, source.height)
    var rows = [[Double]](repeating: [Double](repeating: 0, count: w), count: h)
    for y in 0..<h {
      for x in 0..<w {
        rows[y][x] = (-r...r).reduce(0) { $0 + kernel[$1 + r] * Double(source[min(max(x + $1, 0), w - 1), y][channel]) }
      }
    }
    var out = rows
    for y in 0..<h {
      for x in 0..<w {
        out[y][x] = (-r...r).reduce(0) { $0 + kernel[$1 + r] * rows[min(max(y + $1, 0), h - 1)][x] }
      }
    }
    return out
  }

  /// The stated accuracy: on a photograph, within 7 levels of a true
  /// Gaussian at worst (at edges) and above 48 dB PSNR, for small and
  /// large radii. The crop (feather texture, a colour boundary and the
  /// bird's soft edge against an out-of-focus background) replaces a
  /// kodim23 crop of out-of-focus background, re-measured: 3.6, 3.9, 3.6
  /// levels and 55.9, 55.0, 53.1 dB for radii 1.5, 4, 10 (kodim23: 1.9,
  /// 3.8, 5.6 and 56, 55, 51), so the same bounds hold with a like margin.
  @Test(arguments: [1.5, 4, 10])
  func photographsBlurLikeATrueGaussian(radius: Double) throws {
    let photo = try S.photo("birds").cropped(x: 384, y: 240, width: 96, height: 80)
    let ours = try blur(photo, radius)
    var squares = 0.0
    var worst = 0.0
    for channel in 0..<3 {
      let reference = trueGaussian(photo, sigma: radius, channel: channel)
      for y in 0..<photo.height {
        for x in 0..<photo.width {
          let d = Double(ours[x, y][channel]) - reference[y][x]
          squares += d * d
          worst = max(worst, abs(d))
        }
      }
    }
    let psnr = 10 * log10(255 * 255 / (squares / Double(3 * photo.width * photo.height)))
    #expect(worst <= 7, "radius \(radius): worst \(worst)")
    #expect(psnr >= 48, "radius \(radius): \(psnr) dB")
  }

  /// The impulse response is a Gaussian's to within 7 % of its peak (three
  /// boxes are piecewise quadratic: a little flat on top, a little short
  /// in the tails), and its variance is exactly the Gaussian's.
  @Test func theKernelIsCloseToAGaussian() throws {
    let sigma = 6.0
    // A bright dot in a dark field, blurred in a 61-pixel line (one axis).
    let line = S.make(61, 1) { x, _ in x == 30 ? SIMD4(255, 255, 255, 255) : SIMD4(0, 0, 0, 255) }
    let box = GaussianBlur.Box(sigma: sigma)
    // Three passes of the extended box, in Double, from the box's own weights.
    var values = (0..<61).map { Double(line[$0, 0][0]) }
    let inner = Double(box.inner) / Double(1 << 22)
    let edge = Double(box.edge) / Double(1 << 22)
    for _ in 0..<3 {
      values = (0..<61).map { i in
        var sum = 0.0
        for k in -box.radius...box.radius { sum += inner * values[min(max(i + k, 0), 60)] }
        sum += edge * (values[min(max(i - box.radius - 1, 0), 60)] + values[min(max(i + box.radius + 1, 0), 60)])
        return sum
      }
    }
    let peak = 255 / (sigma * (2 * Double.pi).squareRoot())
    for i in 0..<61 {
      let x = Double(i - 30)
      let gaussian = peak * exp(-x * x / (2 * sigma * sigma))
      #expect(abs(values[i] - gaussian) <= 0.07 * peak, "\(i): \(values[i]) vs \(gaussian)")
    }
    // And the variance is the Gaussian's.
    let mass = values.reduce(0, +)
    let variance = (0..<61).reduce(0.0) { $0 + values[$1] * Double(($1 - 30) * ($1 - 30)) } / mass
    #expect(abs(variance - sigma * sigma) < 0.01)
  }

  @Test func transparentEdgesDoNotDarken() throws {
    // White opaque square in transparency: every visible pixel stays white.
    let source = S.make(30, 30) { x, y in
      (10..<20).contains(x) && (10..<20).contains(y) ? SIMD4(255, 255, 255, 255) : .zero
    }
    let result = try blur(source, 3)
    #expect(S.isValidPremultiplied(result))
    let straight = result.straightRGBA()
    for i in stride(from: 0, to: straight.count, by: 4) where straight[i + 3] >= 16 {
      #expect(straight[i] >= 240)
    }
  }
}
