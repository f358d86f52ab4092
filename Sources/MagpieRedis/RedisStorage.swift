import Foundation
import Magpie
import Synchronization

/// A shared cache tier on Redis (or a Redis-compatible server), through
/// hiredis: put it behind the memory and disk caches as a `CacheTier` and
/// every instance of a fleet reads what any of them stored.
///
/// ```swift
/// let redis = RedisStorage(configuration: try RedisConfiguration(url: URL(string: "redis://cache:6379/2")!))
/// let cache = ImageCache(memoryCache: MemoryCache(), tiers: [CacheTier(disk), CacheTier(redis)])
/// ```
///
/// - Values are `RedisEntry`s: the serializer's bytes and the validators
///   under a checksummed header; a value that fails its checks is deleted
///   and read as a miss. Each is written with the configured expiry
///   (`SET ... PX`), and one over ``RedisConfiguration/maximumValueSize``
///   is not written.
/// - Misses coalesce across instances: the first to miss a key takes a
///   short lock (`SET NX PX`) and fetches; the others wait, up to
///   ``RedisConfiguration/lockWait``, for its entry, and fetch themselves
///   when the wait runs out or the holder gives up.
/// - The server being down, slow or restarting never fails a load: every
///   command is bounded by the command timeout, failures open a circuit
///   breaker that skips the tier (one log line when it opens, one when it
///   closes), and it is retried on its own with backoff.
/// - Failed calls are misses and unwritten entries, not thrown errors.
public final class RedisStorage: ImageDataStoring {
  /// The tier's name: images read from it have cache type `.tier(name)`.
  public let name: String
  /// Where it connects and how it behaves.
  public let configuration: RedisConfiguration
  let pool: RedisConnectionPool
  private let breaker: Lock<RedisCircuitBreaker<ContinuousClock.Instant>>
  let counters = RedisCounters()
  /// Whether the breaker is closed with no failure counted: calls then
  /// skip its lock (it changes only when a call fails).
  private let healthy = Atomic<Bool>(true)
  /// The lock token of each key this instance is fetching.
  let heldLocks = Lock<[String: String]>([:])

  /// A storage on `configuration`'s server; connects on first use.
  public init(configuration: RedisConfiguration, name: String = "redis") {
    self.name = name
    self.configuration = configuration
    pool = RedisConnectionPool(configuration: configuration)
    breaker = Lock(
      RedisCircuitBreaker(
        threshold: configuration.failureThreshold, retryInterval: configuration.retryInterval,
        maximumInterval: configuration.maximumRetryInterval))
  }

  /// What it has done so far.
  public var statistics: RedisStatistics { counters.snapshot }

  /// Whether the circuit breaker is skipping the tier now.
  public var isSkipping: Bool {
    if case .closed = breaker.withLock({ $0.state }) { return false }
    return true
  }

  /// The bytes stored under `key`; waits for another instance's fetch
  /// when coalescing (see the type's notes). Never throws.
  public func data(forKey key: String) async throws(MagpieError) -> Data? {
    switch await call("GET", stored(key)) {
    case .data(let value):
      if let entry = await validated(value, forKey: key) {
        counters.add(.hits)
        return entry.payload
      }
      return await coalescedMiss(forKey: key)
    case .null: return await coalescedMiss(forKey: key)
    default:
      // Skipped or failed: no lock either, the origin it is.
      counters.add(.misses)
      return nil
    }
  }

  /// The metadata stored with `key`'s entry.
  public func metadata(forKey key: String) async throws(MagpieError) -> Data? {
    await entry(forKey: key)?.metadata
  }

  /// Writes the entry with the configured expiry (not when over the size
  /// cap), then gives up this instance's lock on the key.
  public func storeData(_ data: Data, forKey key: String, metadata: Data?) async throws(MagpieError) {
    let value = RedisEntry.encode(data, metadata: metadata)
    // A processed variant's load also looked up (and locked) its original
    // (the part of an ImageCacheKey string before the newline): that load
    // is over, so its lock goes too, stored or not.
    if let newline = key.firstIndex(of: "\n") {
      await releaseLock(forKey: String(key[..<newline]), uncacheable: false)
    }
    guard value.count <= configuration.maximumValueSize else {
      counters.add(.oversized)
      await releaseLock(forKey: key, uncacheable: true)
      return
    }
    var command = ["SET", stored(key)].map(RedisArguments.bytes) + [value]
    let lifetime = configuration.expiration.interval
    if lifetime.isFinite {
      command += ["PX", "\(max(1, Int(lifetime * 1000)))"].map(RedisArguments.bytes)
    }
    if case .status = await call(command) { counters.add(.stores) }
    await releaseLock(forKey: key, uncacheable: false)
  }

  /// Gives up this instance's lock on `key` after its fetch failed,
  /// marked so that the instances waiting for the entry fetch for
  /// themselves at once instead of waiting out ``RedisConfiguration/lockWait``.
  public func abandonFetch(forKey key: String) async {
    await releaseLock(forKey: key, uncacheable: true)
  }

  /// Deletes `key`'s entry.
  public func removeData(forKey key: String) async throws(MagpieError) {
    _ = await call("DEL", stored(key))
  }

  /// Whether `key` has an entry (`EXISTS`); `false` while skipping.
  public func containsData(forKey key: String) async -> Bool {
    await call("EXISTS", stored(key)) == .integer(1)
  }

  /// Deletes every entry under this storage's key prefix (`SCAN` and
  /// `UNLINK` in batches; other keys on the server stay).
  public func removeAll() async throws(MagpieError) {
    let pattern = Self.globEscaped(configuration.keyPrefix) + "*"
    var cursor = "0"
    repeat {
      guard case .array(let parts) = await call("SCAN", cursor, "MATCH", pattern, "COUNT", "1000"), parts.count == 2,
        case .data(let next) = parts[0], case .array(let keys) = parts[1]
      else {
        throw MagpieError(.network, "redis \(configuration.endpoint): SCAN failed while removing every entry")
      }
      let names = keys.compactMap { reply -> Data? in if case .data(let name) = reply { name } else { nil } }
      if !names.isEmpty { _ = await call([RedisArguments.bytes("UNLINK")] + names) }
      cursor = String(decoding: next, as: UTF8.self)
    } while cursor != "0"
  }

  /// The server's key for `key`.
  func stored(_ key: String) -> String { configuration.keyPrefix + key }

  /// The valid entry under `key`; an invalid value is deleted.
  func entry(forKey key: String) async -> (payload: Data, metadata: Data?)? {
    guard case .data(let value) = await call("GET", stored(key)) else { return nil }
    return await validated(value, forKey: key)
  }

  /// `value` as an entry, or `nil` (and the value deleted, before the
  /// refetch can store a new one) when it fails its checks.
  func validated(_ value: Data, forKey key: String) async -> (payload: Data, metadata: Data?)? {
    if let entry = RedisEntry.decode(value) { return entry }
    counters.add(.corrupt)
    _ = await call("DEL", stored(key))
    return nil
  }

  func call(_ words: String...) async -> RedisReply? { await call(words.map(RedisArguments.bytes)) }

  /// Sends a command through the breaker: `nil` when skipped or failed.
  func call(_ arguments: [Data]) async -> RedisReply? {
    let wasHealthy = healthy.load(ordering: .acquiring)
    if !wasHealthy {
      let now = ContinuousClock.now
      guard breaker.withLock({ $0.allowsCall(at: now) }) else {
        counters.add(.skipped)
        return nil
      }
    }
    do throws(MagpieError) {
      let reply = try await pool.send(arguments)
      if !wasHealthy {
        let line = breaker.withLock { breaker in
          defer { healthy.store(breaker.state == .closed(failures: 0), ordering: .releasing) }
          return breaker.recordSuccess()
        }
        if let line { log(line, level: .info) }
      }
      return reply
    } catch {
      counters.add(.failures)
      let line = breaker.withLock { breaker in
        defer { healthy.store(false, ordering: .releasing) }
        return breaker.recordFailure(at: ContinuousClock.now, reason: error.reason)
      }
      if let line { log(line, level: .warning) }
      return nil
    }
  }

  /// Reports a change of the connection's health to the configuration's
  /// callback and to Magpie's log.
  private func log(_ line: String, level: MagpieLogging.Level) {
    configuration.log?("redis \(configuration.endpoint): \(line)")
    MagpieLogging.log(level, "redis", line, metadata: ["endpoint": configuration.endpoint])
  }

  private static func globEscaped(_ text: String) -> String {
    text.reduce(into: "") { result, character in
      if "*?[]\\".contains(character) { result.append("\\") }
      result.append(character)
    }
  }
}
