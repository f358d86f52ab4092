extension ImageProcessors {
  /// Multiplies the image's colours by `color`, blended in by the colour's
  /// alpha: an opaque tint turns white into the tint colour and leaves black
  /// black; a half-transparent one goes halfway. The image's alpha is kept.
  public struct Tint: ImageProcessor {
    /// The tint; its alpha is the tint's strength.
    public let color: RGBAColor

    /// Tints with `color`.
    public init(color: RGBAColor) { self.color = color }

    /// `tint(#RRGGBBAA)`.
    public var identifier: String { "tint(\(color))" }

    /// The tinted image.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      let matrix = self.matrix
      return try item.mapFrames(processor: identifier, options: options) { matrix.apply(to: $0) }
    }

    var matrix: ColorMatrix {
      let strength = Double(color.alpha) / 255
      let factors = [color.red, color.green, color.blue].map { 1 - strength + strength * Double($0) / 255 }
      return ColorMatrix(m: [factors[0], 0, 0, 0, factors[1], 0, 0, 0, factors[2]], b: .zero)
    }
  }
}
