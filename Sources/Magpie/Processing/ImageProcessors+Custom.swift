extension ImageProcessors {
  /// Your own processing under your own identifier: Kingfisher's
  /// `GeneralProcessor`. The identifier must change whenever the closure's
  /// output would (include its parameters in it).
  public struct Custom: ImageProcessor {
    private let name: String
    private let transform: @Sendable (ImageProcessItem, ImageProcessingOptions, String) throws(MagpieError) -> Image

    /// Runs `pixels` over every frame (or only the first, as the options
    /// say), keeping frame durations and the loop count; a `nil` from any
    /// frame fails the processor with ``MagpieError/Code/processingFailed``
    /// naming its identifier.
    public init(identifier: String, pixels: @escaping @Sendable (PixelBuffer) -> PixelBuffer?) {
      self.name = identifier
      self.transform = { item, options, id throws(MagpieError) in
        try item.mapFrames(processor: id, options: options, pixels)
      }
    }

    /// Runs `image` over the decoded image as a whole (data items are
    /// decoded first, through the options' registry); a `nil` fails the
    /// processor with ``MagpieError/Code/processingFailed`` naming its
    /// identifier.
    public init(identifier: String, image: @escaping @Sendable (Image) -> Image?) {
      self.name = identifier
      self.transform = { item, options, id throws(MagpieError) in
        guard let result = image(try item.decoded(options: options)) else {
          throw MagpieError(.processingFailed, "processor \(id) could not process the image", processor: id)
        }
        return result
      }
    }

    /// Runs the throwing `image` over the decoded image as a whole (data
    /// items are decoded first, through the options' registry). What it
    /// throws reaches the caller with its own code; the pipeline names
    /// this processor in ``MagpieError/processor``.
    public init(
      identifier: String, throwing image: @escaping @Sendable (Image) throws(MagpieError) -> Image
    ) {
      self.name = identifier
      self.transform = { item, options, _ throws(MagpieError) in try image(try item.decoded(options: options)) }
    }

    /// `custom(ID)`, with `%`, `|`, `(`, `)` and `,` in `ID` percent-escaped
    /// so that no custom identifier can read as a built-in or a chain.
    public var identifier: String { "custom(\(ProcessorIdentifier.escaped(name)))" }

    /// What the closure makes of the item.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      let identifier = self.identifier
      do throws(MagpieError) {
        return try transform(item, options, identifier)
      } catch {
        // Named here too, so a Custom run outside the pipeline says so.
        throw error.raised(by: identifier)
      }
    }
  }
}
