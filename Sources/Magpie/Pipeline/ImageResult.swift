import Foundation

/// A loaded image and how it was obtained.
public struct ImageResult: Sendable {
  /// The image, processed as the request asked.
  public var image: Image
  /// Where it came from: `.none` when it was loaded from its source.
  public var cacheType: CacheType
  /// The request that produced it.
  public var request: ImageRequest
  /// The encoded bytes, when they were loaded from the source or the disk.
  public var data: Data?
  /// Where the time went.
  public var metrics: ImageTaskMetrics
}
