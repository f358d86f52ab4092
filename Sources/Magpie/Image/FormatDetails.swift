/// What sniffing the first bytes of an image tells beyond its format.
public struct FormatDetails: Sendable, Equatable {
  /// The format.
  public var format: ImageFormat
  /// Whether the container says the image is animated (APNG, animated WebP;
  /// GIF only knows once its frames are counted, so this is false for GIF).
  public var isAnimated: Bool
  /// Whether the data is WebP lossless (`VP8L`); false for every other format.
  public var isLossless: Bool

  /// Creates details for a format.
  public init(format: ImageFormat, isAnimated: Bool = false, isLossless: Bool = false) {
    self.format = format
    self.isAnimated = isAnimated
    self.isLossless = isLossless
  }
}
