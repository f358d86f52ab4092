/// A colour as processors take it: 8-bit red, green, blue and alpha,
/// straight (not premultiplied), in sRGB.
public struct RGBAColor: Hashable, Sendable, CustomStringConvertible {
  /// Red, 0-255.
  public var red: UInt8
  /// Green, 0-255.
  public var green: UInt8
  /// Blue, 0-255.
  public var blue: UInt8
  /// Opacity, 0 (transparent) to 255 (opaque).
  public var alpha: UInt8

  /// A colour from its four channels; opaque unless `alpha` says otherwise.
  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// A colour from `0xRRGGBB` (opaque) or, with `hasAlpha`, `0xRRGGBBAA`.
  public init(hex: UInt32, hasAlpha: Bool = false) {
    let rgba = hasAlpha ? hex : hex << 8 | 0xFF
    self.init(
      red: UInt8(truncatingIfNeeded: rgba >> 24), green: UInt8(truncatingIfNeeded: rgba >> 16),
      blue: UInt8(truncatingIfNeeded: rgba >> 8), alpha: UInt8(truncatingIfNeeded: rgba))
  }

  /// Opaque black.
  public static let black = RGBAColor(red: 0, green: 0, blue: 0)
  /// Opaque white.
  public static let white = RGBAColor(red: 255, green: 255, blue: 255)
  /// Fully transparent (black, alpha 0).
  public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

  /// The colour as a premultiplied pixel, `[r, g, b, a]`.
  public var premultiplied: SIMD4<UInt8> {
    let a = UInt32(alpha)
    return SIMD4(
      PixelBuffer.multiplyDivide255(UInt32(red), a), PixelBuffer.multiplyDivide255(UInt32(green), a),
      PixelBuffer.multiplyDivide255(UInt32(blue), a), alpha)
  }

  /// `#RRGGBBAA` in upper-case hex: one spelling per colour.
  public var description: String {
    let value = UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
    let digits = String(value, radix: 16, uppercase: true)
    return "#" + String(repeating: "0", count: 8 - digits.count) + digits
  }
}
