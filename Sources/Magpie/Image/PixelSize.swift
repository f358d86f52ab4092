/// A size in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int

  /// Creates a size of `width` by `height` pixels.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The number of pixels, `width * height`; saturates instead of overflowing
  /// so that hostile headers cannot wrap a size check around.
  public var pixelCount: Int {
    let (product, overflow) = width.multipliedReportingOverflow(by: height)
    return overflow ? Int.max : product
  }

  /// The same size with width and height exchanged (a quarter turn).
  public var transposed: PixelSize { PixelSize(width: height, height: width) }

  /// The largest size with this size's aspect ratio that fits inside `box`,
  /// never larger than this size (no upscaling), never smaller than 1x1.
  public func fitting(in box: PixelSize) -> PixelSize {
    guard width > 0, height > 0, box.width > 0, box.height > 0 else { return self }
    if width <= box.width && height <= box.height { return self }
    // Compare ratios with integers to avoid rounding the limiting side.
    if width * box.height >= height * box.width {
      let h = max(1, Int((Double(height) * Double(box.width) / Double(width)).rounded()))
      return PixelSize(width: box.width, height: min(h, box.height))
    } else {
      let w = max(1, Int((Double(width) * Double(box.height) / Double(height)).rounded()))
      return PixelSize(width: min(w, box.width), height: box.height)
    }
  }

  /// The smallest size with this size's aspect ratio that covers `box`,
  /// never larger than this size (no upscaling).
  public func filling(_ box: PixelSize) -> PixelSize {
    guard width > 0, height > 0, box.width > 0, box.height > 0 else { return self }
    let scale = max(Double(box.width) / Double(width), Double(box.height) / Double(height))
    if scale >= 1 { return self }
    return PixelSize(
      width: max(1, Int((Double(width) * scale).rounded(.up))),
      height: max(1, Int((Double(height) * scale).rounded(.up))))
  }

  /// `"WxH"`.
  public var description: String { "\(width)x\(height)" }
}
