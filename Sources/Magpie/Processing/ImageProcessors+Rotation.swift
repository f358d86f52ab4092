extension ImageProcessors {
  /// Turns the image clockwise by a quarter, half or three-quarter turn.
  public struct Rotation: ImageProcessor {
    /// A clockwise turn.
    public enum Angle: Int, Sendable, CaseIterable {
      /// A quarter turn clockwise.
      case degrees90 = 90
      /// A half turn.
      case degrees180 = 180
      /// Three quarters clockwise (a quarter counter-clockwise).
      case degrees270 = 270
    }

    /// The turn.
    public let angle: Angle

    /// Turns images clockwise by `angle`.
    public init(_ angle: Angle) { self.angle = angle }

    /// `rotate(90)`, `rotate(180)` or `rotate(270)`.
    public var identifier: String { "rotate(\(angle.rawValue))" }

    /// The turned image.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      try item.mapFrames(processor: identifier, options: options) { $0.rotated(quarterTurns: angle.rawValue / 90) }
    }
  }
}
