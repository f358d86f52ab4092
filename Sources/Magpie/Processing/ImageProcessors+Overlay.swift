extension ImageProcessors {
  /// Lays `color` over the image's visible pixels: each colour moves
  /// `fraction` of the way to the overlay colour (times the colour's own
  /// alpha), while the image's alpha is kept, so transparent areas stay
  /// transparent. Kingfisher's `OverlayImageProcessor`, with the fraction
  /// counted from the image: 0 leaves it as it is, 1 paints it over.
  public struct Overlay: ImageProcessor {
    /// The overlay colour.
    public let color: RGBAColor
    /// How much of the colour shows, 0 to 1.
    public let fraction: Double

    /// Overlays `color` at `fraction` (one half by default).
    public init(color: RGBAColor, fraction: Double = 0.5) {
      precondition(fraction.isFinite && (0...1).contains(fraction), "overlay fraction must be within 0...1")
      self.color = color
      self.fraction = fraction
    }

    /// `overlay(#RRGGBBAA,FRACTION)`.
    public var identifier: String { "overlay(\(color),\(ProcessorIdentifier.number(fraction)))" }

    /// The image with the overlay.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      let matrix = self.matrix
      return try item.mapFrames(processor: identifier, options: options) { matrix.apply(to: $0) }
    }

    var matrix: ColorMatrix {
      let f = fraction * Double(color.alpha) / 255
      let keep = 1 - f
      return ColorMatrix(
        m: [keep, 0, 0, 0, keep, 0, 0, 0, keep],
        b: SIMD3(Double(color.red), Double(color.green), Double(color.blue)) / 255 * f)
    }
  }
}
