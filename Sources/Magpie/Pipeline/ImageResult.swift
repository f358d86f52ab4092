import Foundation

/// A loaded image and how it was obtained.
public struct ImageResult: Sendable {
  /// The fields, in one reference: a result is copied into its task, its
  /// callbacks and its waiters, and each copy costs one retain, not one per
  /// field and a few hundred bytes moved. A shared one is copied before a
  /// change.
  private var storage: Storage

  /// The image, processed as the request asked.
  public var image: Image {
    get { storage.image }
    set { update { $0.image = newValue } }
  }
  /// Where it came from: `.none` when it was loaded from its source.
  public var cacheType: CacheType {
    get { storage.cacheType }
    set { update { $0.cacheType = newValue } }
  }
  /// The request that produced it.
  public var request: ImageRequest {
    get { storage.request }
    set { update { $0.request = newValue } }
  }
  /// The encoded bytes, when they were loaded from the source or the disk.
  public var data: Data? {
    get { storage.data }
    set { update { $0.data = newValue } }
  }
  /// Where the time went.
  public var metrics: ImageTaskMetrics {
    get { storage.metrics }
    set { update { $0.metrics = newValue } }
  }

  init(image: Image, cacheType: CacheType, request: ImageRequest, data: Data?, metrics: ImageTaskMetrics) {
    storage = Storage(image: image, cacheType: cacheType, request: request, data: data, metrics: metrics)
  }

  /// Changes the fields, copying them first when another result shares them.
  private mutating func update(_ change: (Storage) -> Void) {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    change(storage)
  }
}
