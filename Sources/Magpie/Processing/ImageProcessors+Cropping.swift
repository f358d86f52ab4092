extension ImageProcessors {
  /// Cuts a `size` rectangle out of the image, placed by `anchor`. Sides
  /// longer than the image's are cut to the image's.
  public struct Cropping: ImageProcessor {
    /// Where the kept rectangle sits in the image.
    public enum Anchor: String, Sendable, CaseIterable {
      /// Centred on both axes.
      case center
      /// Touching the top edge, centred left to right.
      case top
      /// Touching the bottom edge, centred left to right.
      case bottom
      /// Touching the left edge, centred top to bottom.
      case left
      /// Touching the right edge, centred top to bottom.
      case right
      /// In the top-left corner.
      case topLeft
      /// In the top-right corner.
      case topRight
      /// In the bottom-left corner.
      case bottomLeft
      /// In the bottom-right corner.
      case bottomRight

      /// The rectangle's origin as fractions of the free space: 0 at the
      /// left (top), 1/2 centred, 1 at the right (bottom).
      var placement: (x: Int, y: Int) {
        switch self {
        case .center: (1, 1)
        case .top: (1, 0)
        case .bottom: (1, 2)
        case .left: (0, 1)
        case .right: (2, 1)
        case .topLeft: (0, 0)
        case .topRight: (2, 0)
        case .bottomLeft: (0, 2)
        case .bottomRight: (2, 2)
        }
      }
    }

    /// The size of the rectangle kept, in pixels.
    public let size: PixelSize
    /// Where the rectangle sits.
    public let anchor: Anchor

    /// Keeps a `size` rectangle placed by `anchor` (centred by default).
    public init(size: PixelSize, anchor: Anchor = .center) {
      precondition(size.width > 0 && size.height > 0, "cropping to an empty size")
      self.size = size
      self.anchor = anchor
    }

    /// `crop(WxH,ANCHOR)`, e.g. `crop(100x100,center)`.
    public var identifier: String { "crop(\(ProcessorIdentifier.size(size)),\(anchor.rawValue))" }

    /// The cropped image.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      try item.mapFrames(processor: identifier, options: options) { pixels in
        let w = min(size.width, pixels.width)
        let h = min(size.height, pixels.height)
        // Centred rectangles round down: an odd pixel of slack goes right
        // (bottom).
        let (px, py) = anchor.placement
        return pixels.cropped(x: (pixels.width - w) * px / 2, y: (pixels.height - h) * py / 2, width: w, height: h)
      }
    }
  }
}
