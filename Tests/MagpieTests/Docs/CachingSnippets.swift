import Foundation
import Magpie
import Synchronization

/// The code the Caching and Tiers article quotes, compiled with the tests.
enum CachingSnippets {
  // snippet.begin shared-storage
  /// A storage of your own: here a dictionary, in an app an object store
  /// or a cache server.
  final class SharedStorage: ImageDataStoring {
    let name = "shared"
    private let entries = Mutex<[String: (data: Data, metadata: Data?)]>([:])

    func data(forKey key: String) async throws(MagpieError) -> Data? {
      entries.withLock { $0[key]?.data }
    }
    func metadata(forKey key: String) async throws(MagpieError) -> Data? {
      entries.withLock { $0[key]?.metadata }
    }
    func storeData(_ data: Data, forKey key: String, metadata: Data?) async throws(MagpieError) {
      entries.withLock { $0[key] = (data, metadata) }
    }
    func removeData(forKey key: String) async throws(MagpieError) {
      _ = entries.withLock { $0.removeValue(forKey: key) }
    }
    func containsData(forKey key: String) async -> Bool {
      entries.withLock { $0[key] != nil }
    }
    func removeAll() async throws(MagpieError) {
      entries.withLock { $0.removeAll() }
    }
  }
  // snippet.end

  /// The article's tiered manager.
  static func tieredManager() throws -> ImageManager {
    // snippet.begin tiered-cache
    let cache = ImageCache(
      tiers: [
        CacheTier(try DiskCache(namespace: "photos")),
        CacheTier(SharedStorage(), writeMode: .writeThrough),
      ],
      readFailed: { error, key, tier in print("\(tier) could not read \(key): \(error)") })
    var configuration = try ImageManager.Configuration.standard(namespace: "photos")
    configuration.cache = cache
    let manager = ImageManager(configuration: configuration)
    // snippet.end
    return manager
  }
}
