extension ImageProcessors {
  /// Processors run one after another, left to right: the first gets the
  /// item as it comes (data or image), each later one the image the one
  /// before made. Build one with ``ImageProcessor/append(_:)`` or `|>`.
  ///
  /// The identifier joins the parts' identifiers with `|`, as the
  /// `--process` spec does, so the same chain always has the same one and
  /// chains that differ in any processor, parameter or order never share it.
  /// An empty chain changes nothing and has the empty identifier, which
  /// caches read as "unprocessed".
  public struct Chain: ImageProcessor {
    /// The processors in the order they run; never itself a chain.
    public let processors: [any ImageProcessor]

    /// A chain of `processors`; nested chains are flattened.
    public init(_ processors: [any ImageProcessor]) {
      self.processors = processors.flatMap { ($0 as? Chain)?.processors ?? [$0] }
    }

    /// The parts' identifiers joined with `|`.
    public var identifier: String { processors.map(\.identifier).joined(separator: "|") }

    /// What the first part prefers.
    public var prefersEncodedData: Bool { processors.first?.prefersEncodedData ?? false }

    /// Runs the processors in turn; throws what the first to fail throws,
    /// with ``MagpieError/processor`` naming that part (not the chain).
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      guard let first = processors.first else { return try item.decoded(options: options) }
      var image = try first.processNamingFailures(item: item, options: options)
      for processor in processors.dropFirst() {
        image = try processor.processNamingFailures(item: .image(image), options: options)
      }
      return image
    }
  }
}
