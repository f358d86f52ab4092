extension ImageProcessors {
  /// Mirrors the image.
  public struct Flip: ImageProcessor {
    /// The mirror's axis.
    public enum Direction: String, Sendable, CaseIterable {
      /// Left to right (a horizontal flip).
      case horizontal
      /// Top to bottom (a vertical flip).
      case vertical
    }

    /// Which way the image is mirrored.
    public let direction: Direction

    /// Mirrors images along `direction`.
    public init(_ direction: Direction) { self.direction = direction }

    /// `flip(h)` or `flip(v)`.
    public var identifier: String { "flip(\(direction == .horizontal ? "h" : "v"))" }

    /// The mirrored image.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      try item.mapFrames(processor: identifier, options: options) { $0.flipped(horizontally: direction == .horizontal) }
    }
  }
}
