/// The key an image is cached under: its source key (a URL string after the
/// ``CacheKeyFilter``, or a data provider's key) and the identifier of the
/// processors applied to it.
///
/// The unprocessed image and its original bytes live under ``original``, so
/// a new processor chain over a cached source reuses them without the
/// network.
public struct ImageCacheKey: Hashable, Sendable, CustomStringConvertible {
  /// The source's key.
  public var source: String
  /// The processors' combined identifier; empty when unprocessed.
  public var processorIdentifier: String

  /// A key for `source` processed by processors with `processorIdentifier`.
  public init(source: String, processorIdentifier: String = "") {
    self.source = source
    self.processorIdentifier = processorIdentifier
  }

  /// The key of the same source, unprocessed.
  public var original: ImageCacheKey { ImageCacheKey(source: source) }

  /// Whether this key names a processed variant.
  public var isProcessed: Bool { !processorIdentifier.isEmpty }

  /// The string the caches store under. A newline separates source and
  /// processors: URLs cannot contain one, so no source key can collide with
  /// another source's processed variant.
  public var stringValue: String {
    processorIdentifier.isEmpty ? source : source + "\n" + processorIdentifier
  }

  /// `stringValue` with the separator shown as `" | "`.
  public var description: String {
    processorIdentifier.isEmpty ? source : source + " | " + processorIdentifier
  }
}
