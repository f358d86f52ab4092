import Foundation

/// The disk cache as a tier of an ``ImageCache``. Reads (`data(forKey:)`,
/// `metadata(forKey:)`) are the synchronous methods: called from the
/// cache's `@concurrent` lookups they run on Swift's global executor, never
/// on the caller's thread, without a hop to the I/O queue. Writes and
/// removals, which create, rename and unlink files, go to the I/O queue,
/// one at a time unless each store flushes (``DiskCache/performWrite(_:)``).
extension DiskCache: ImageDataStoring {
  /// ``Configuration/name``, `"disk"` unless set.
  public var name: String { configuration.name }

  /// Stores on the I/O queue; see ``store(_:forKey:metadata:)``.
  public func storeData(_ data: Data, forKey key: String, metadata: Data?) async throws(MagpieError) {
    try await performWrite { disk throws(MagpieError) in try disk.store(data, forKey: key, metadata: metadata) }
  }

  /// Removes on the I/O queue; see ``remove(forKey:)``.
  public func removeData(forKey key: String) async throws(MagpieError) {
    try await performWrite { disk throws(MagpieError) in try disk.remove(forKey: key) }
  }

  /// Whether a live file exists for `key` (one `stat`); see ``contains(_:)``.
  public func containsData(forKey key: String) -> Bool { contains(key) }

  /// Empties the folder on the I/O queue; see ``clear()``.
  public func removeAll() async throws(MagpieError) {
    try await performWrite { disk throws(MagpieError) in try disk.clear() }
  }
}
