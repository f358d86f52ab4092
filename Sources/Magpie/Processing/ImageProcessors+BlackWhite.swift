extension ImageProcessors {
  /// Turns the image gray: each pixel becomes its Rec. 601 luma
  /// (0.299 R + 0.587 G + 0.114 B, as JPEG and Pillow's `convert("L")`
  /// weigh them). Alpha is kept.
  public struct BlackWhite: ImageProcessor {
    /// The grayscale processor.
    public init() {}

    /// `grayscale`.
    public var identifier: String { "grayscale" }

    /// The gray image.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      try item.mapFrames(processor: identifier, options: options) { Self.matrix.apply(to: $0) }
    }

    static let matrix: ColorMatrix = {
      let l = ColorMatrix.lumaWeights
      return ColorMatrix(m: [l[0], l[1], l[2], l[0], l[1], l[2], l[0], l[1], l[2]], b: .zero)
    }()
  }
}
