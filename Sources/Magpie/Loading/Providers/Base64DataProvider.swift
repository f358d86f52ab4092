import Foundation

/// Image bytes encoded as base64 text (a `data:` URL's payload, an API
/// field).
public struct Base64DataProvider: ImageDataProvider {
  /// The base64 text.
  public let base64String: String
  /// The cache key.
  public let cacheKey: String

  /// A provider decoding `base64String`, cached under `cacheKey`.
  public init(base64String: String, cacheKey: String) {
    self.base64String = base64String
    self.cacheKey = cacheKey
  }

  /// The decoded bytes; invalid base64 is an ``MagpieError/Code/invalidArgument`` error.
  public func data() async throws(MagpieError) -> Data {
    guard let data = Data(base64Encoded: base64String, options: .ignoreUnknownCharacters) else {
      throw MagpieError(.invalidArgument, "the base64 text for \(cacheKey) does not decode")
    }
    return data
  }
}
