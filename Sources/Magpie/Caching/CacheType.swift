/// Where a retrieved image came from.
public enum CacheType: String, Sendable, Equatable {
  /// Not from a cache: it was loaded from its source.
  case none
  /// From the memory cache.
  case memory
  /// From the disk cache.
  case disk
}
