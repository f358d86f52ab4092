extension ImageProcessors {
  /// Core Image's `CIColorControls`: saturation, then contrast, then
  /// brightness, on straight sRGB values from 0 to 1. The defaults change
  /// nothing.
  public struct ColorControls: ImageProcessor {
    /// Added to every channel: -1 makes everything black, 1 white.
    public let brightness: Double
    /// Scales the distance from mid grey (0.5): 0 is flat grey, 1 unchanged.
    public let contrast: Double
    /// Scales the distance from the pixel's Rec. 601 luma: 0 is grayscale,
    /// 1 unchanged, above 1 more vivid.
    public let saturation: Double

    /// Adjusts brightness, contrast and saturation.
    public init(brightness: Double = 0, contrast: Double = 1, saturation: Double = 1) {
      precondition(brightness.isFinite && contrast.isFinite && saturation.isFinite, "colour controls must be finite")
      self.brightness = brightness
      self.contrast = contrast
      self.saturation = saturation
    }

    /// `colorControls(BRIGHTNESS,CONTRAST,SATURATION)`.
    public var identifier: String {
      let values = [brightness, contrast, saturation].map(ProcessorIdentifier.number)
      return "colorControls(\(values.joined(separator: ",")))"
    }

    /// The adjusted image.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      let matrix = self.matrix
      return try item.mapFrames(processor: identifier, options: options) { matrix.apply(to: $0) }
    }

    var matrix: ColorMatrix {
      let l = ColorMatrix.lumaWeights
      let s = saturation
      // x -> luma + s (x - luma), per row.
      var m = [Double](repeating: 0, count: 9)
      for r in 0..<3 {
        for c in 0..<3 { m[r * 3 + c] = (1 - s) * l[c] + (r == c ? s : 0) }
      }
      let saturated = ColorMatrix(m: m, b: .zero)
      let scaled = ColorMatrix(
        m: [contrast, 0, 0, 0, contrast, 0, 0, 0, contrast],
        b: SIMD3(repeating: 0.5 - 0.5 * contrast + brightness))
      return scaled.after(saturated)
    }
  }
}
