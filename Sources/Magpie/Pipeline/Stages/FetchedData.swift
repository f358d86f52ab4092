import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What the fetch stage hands on: the source's original bytes, from the
/// source or from a cache tier that kept the original.
struct FetchedData: Sendable {
  /// The original encoded bytes.
  var data: Data
  /// The HTTP response they came with (`nil` from a provider or a cache).
  var response: HTTPURLResponse?
  /// `.none` from the source; the tier's type when a tier had the original.
  var cacheType: CacheType
  /// Network and cache-read time and bytes of the fetch.
  var metrics: ImageTaskMetrics
}
