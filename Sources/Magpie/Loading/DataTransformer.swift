import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turns a source's bytes into the bytes to decode: a decryptor, a
/// decompressor, a container unwrapper (SDWebImage's
/// `SDWebImageDownloaderDecryptor`, Kingfisher's `ImageDataProcessor`).
///
/// It runs once per load from the source, after the
/// ``ResponseModifier``s, **before decoding and before the original is
/// cached**: the cache tiers hold what it returns, so a hit never runs it
/// again, and the disk holds the plain bytes (keep the tiers in memory,
/// or use a ``CacheSerializer`` that encrypts, when they must not rest
/// there in the clear). It applies to every source: HTTP bodies, `file://`
/// and `data:` URLs, and data providers; the response is `nil` for the
/// last three.
///
/// Set per manager (``ImageManager/Configuration/dataTransformers``) and
/// per request (``ImageRequest/dataTransformers``, after the manager's);
/// the ``identifier`` names what it does, as a ``ResponseModifier``'s.
public struct DataTransformer: Sendable {
  /// Names what it does (part of the shared-work key).
  public let identifier: String
  let body: @Sendable (Data, HTTPURLResponse?) async throws(MagpieError) -> Data

  /// A transformer named `identifier`: gets the bytes and the response
  /// they came with, returns the bytes to decode or throws.
  public init(
    _ identifier: String, _ transform: @escaping @Sendable (Data, HTTPURLResponse?) async throws(MagpieError) -> Data
  ) {
    self.identifier = identifier
    body = transform
  }

  /// Applies the change to `data`, which came with `response`.
  public func transform(_ data: Data, response: HTTPURLResponse?) async throws(MagpieError) -> Data {
    try await body(data, response)
  }
}
