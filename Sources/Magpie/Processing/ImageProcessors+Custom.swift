extension ImageProcessors {
  /// Your own processing under your own identifier: Kingfisher's
  /// `GeneralProcessor`. The identifier must change whenever the closure's
  /// output would (include its parameters in it).
  public struct Custom: ImageProcessor {
    private let name: String
    private let transform: @Sendable (ImageProcessItem, ImageProcessingOptions) -> Image?

    /// Runs `pixels` over every frame (or only the first, as the options
    /// say), keeping frame durations and the loop count; a `nil` from any
    /// frame fails the processor.
    public init(identifier: String, pixels: @escaping @Sendable (PixelBuffer) -> PixelBuffer?) {
      self.name = identifier
      self.transform = { item, options in item.mapFrames(options: options, pixels) }
    }

    /// Runs `image` over the decoded image as a whole (data items are
    /// decoded first, through the options' registry).
    public init(identifier: String, image: @escaping @Sendable (Image) -> Image?) {
      self.name = identifier
      self.transform = { item, options in item.decoded(options: options).flatMap(image) }
    }

    /// `custom(ID)`, with `%`, `|`, `(`, `)` and `,` in `ID` percent-escaped
    /// so that no custom identifier can read as a built-in or a chain.
    public var identifier: String { "custom(\(ProcessorIdentifier.escaped(name)))" }

    /// What the closure makes of the item.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) -> Image? {
      transform(item, options)
    }
  }
}
