import Foundation
import Magpie

extension FuzzHarness {
  /// ICC profile parsing and transform building (lcms2, and the
  /// matrix-shaper tables Magpie fills from it) for RGB and inverted-CMYK
  /// pixels, then the transform run over a small gradient.
  static let icc = FuzzHarness(name: "icc", seedExtensions: ["icc", "icm"], maxLength: 64 << 10) { data in
    for input in [ColorTransform.Input.rgba, .invertedCMYK] {
      guard case .transform(let transform) = ColorTransformBuilder.outcome(for: data, input: input) else { continue }
      var pixels = PixelBuffer(width: 16, height: 4, straightRGBA: (0..<256).map { UInt8($0) })
      SRGBConversion.convert(&pixels, with: transform)
    }
  }
}
