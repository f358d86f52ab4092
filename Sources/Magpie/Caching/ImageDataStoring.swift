import Foundation

/// A store of encoded cache entries: bytes under a string key, with small
/// metadata beside them (the validators a later load revalidates with).
///
/// ``DiskCache`` is one; a storage of your own (a shared server, an object
/// store, an in-memory dictionary in tests) becomes a ``CacheTier`` of an
/// ``ImageCache`` behind the memory cache and the disk cache, without any
/// change to ``ImageManager``. Keys are ``ImageCacheKey/stringValue``s.
///
/// Reads that fail throw instead of returning `nil`: the cache reports them
/// to its ``ImageCache/readFailed`` hook and counts them as misses.
public protocol ImageDataStoring: Sendable {
  /// The storage's name: the ``CacheType`` of images read from it.
  var name: String { get }

  /// The bytes stored under `key`, or `nil` when there are none.
  func data(forKey key: String) async throws(MagpieError) -> Data?

  /// The metadata stored with `key`'s entry, or `nil` when there is none.
  func metadata(forKey key: String) async throws(MagpieError) -> Data?

  /// Stores `data` and its `metadata` under `key`, replacing any entry.
  func storeData(_ data: Data, forKey key: String, metadata: Data?) async throws(MagpieError)

  /// Removes `key`'s entry, if any.
  func removeData(forKey key: String) async throws(MagpieError)

  /// Whether an entry exists for `key`, without reading it.
  func containsData(forKey key: String) async -> Bool

  /// Removes every entry.
  func removeAll() async throws(MagpieError)
  /// The fetch after a miss of `key` failed; nothing will be stored (see
  /// the default implementation).
  func abandonFetch(forKey key: String) async
}

extension ImageDataStoring {
  /// Called when the fetch after a miss of `key` failed and nothing will
  /// be stored: a shared tier that makes other processes wait for the
  /// first one's entry (``data(forKey:)``'s coalescing) lets them go at
  /// once. Does nothing by default.
  public func abandonFetch(forKey key: String) async {}
}
