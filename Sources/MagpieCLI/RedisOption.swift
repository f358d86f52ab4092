import Foundation
import Magpie

#if canImport(MagpieRedis)
  import MagpieRedis
#endif

/// `--redis redis://[password@]host[:port][/db]` of `magpie fetch` and
/// `magpie prefetch`: a shared Redis tier behind the disk cache.
struct RedisOption {
  /// The tier to put behind the disk cache.
  let tier: CacheTier
  /// One line saying what the tier did, for the end of the command.
  let summary: @Sendable () -> String

  /// The tier for the flag's `value`, with a connection per download;
  /// `nil` without the flag. A usage error for a bad URL, or where this
  /// build has no Redis tier (built without libhiredis-dev).
  static func parse(_ value: String?, concurrency: Int) throws(CLIError) -> RedisOption? {
    guard let value else { return nil }
    #if canImport(MagpieRedis)
      guard let url = URL(string: value) else { throw .usage("--redis", "\(value) is not a URL") }
      var configuration: RedisConfiguration
      do {
        configuration = try RedisConfiguration(url: url)
      } catch {
        throw .usage("--redis", error.reason)
      }
      configuration.poolSize = concurrency
      let storage = RedisStorage(configuration: configuration)
      // Written before the load is delivered, so the next instance finds it.
      return RedisOption(tier: CacheTier(storage, writeMode: .writeThrough)) {
        let counts = storage.statistics
        return "redis \(storage.configuration.endpoint): \(counts.hits + counts.coalescedHits) hits "
          + "(\(counts.coalescedHits) after waiting for another instance), \(counts.misses) misses, "
          + "\(counts.stores) stored, \(counts.skipped) skipped while down"
      }
    #else
      throw .usage("--redis", "this magpie was built without the Redis tier (libhiredis-dev)")
    #endif
  }
}
