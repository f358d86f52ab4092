import Foundation

/// Image bytes already in memory.
public struct RawDataProvider: ImageDataProvider {
  /// The bytes.
  public let bytes: Data
  /// The cache key.
  public let cacheKey: String

  /// A provider of `data`, cached under `cacheKey`.
  public init(data: Data, cacheKey: String) {
    self.bytes = data
    self.cacheKey = cacheKey
  }

  /// The bytes.
  public func data() async throws(MagpieError) -> Data { bytes }
}
