/// A thread-safe least-recently-used cache with a total cost limit, an
/// optional count limit and per-entry expiry that every access extends.
///
/// A hit is one lock and one dictionary lookup: no actor hop, no
/// allocation. Inserting past a limit evicts the least recently used
/// entries until the cache fits again.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// The limits, read on every insert; change them with `setLimits`.
  public struct Limits: Sendable, Equatable {
    /// The most total cost the cache holds.
    public var totalCost: Int
    /// The most entries the cache holds; `nil` for no count limit.
    public var count: Int?
    /// How long an entry lives after its last access.
    public var expiration: CacheExpiration

    /// Creates limits.
    public init(totalCost: Int, count: Int? = nil, expiration: CacheExpiration = .seconds(300)) {
      self.totalCost = totalCost
      self.count = count
      self.expiration = expiration
    }
  }

  @usableFromInline
  struct State {
    @usableFromInline var list = LRUList<Key, Value>()
    @usableFromInline var limits: Limits

    @inlinable
    init(limits: Limits) { self.limits = limits }
  }

  // Hot paths are inlinable so callers in other modules get code
  // specialized for their key and value types, not generic dispatch.
  @usableFromInline let state: Lock<State>
  @usableFromInline let now: @Sendable () -> Double

  /// Creates a cache with `limits`. `now` gives monotonic seconds; inject a
  /// manual clock in tests.
  public init(limits: Limits, now: @escaping @Sendable () -> Double = MonotonicClock.coarseSeconds) {
    self.state = Lock(State(limits: limits))
    self.now = now
  }

  /// The value for `key`, if present and not expired; marks it most recently
  /// used and extends its life.
  @inlinable
  public func value(forKey key: Key) -> Value? {
    let time = now()
    return state.withLock { state in
      state.list.value(forKey: key, now: time, newExpiry: time + state.limits.expiration.interval)
    }
  }

  /// Whether `key` has a live entry; does not count as a use.
  @inlinable
  public func contains(_ key: Key) -> Bool {
    state.withLock { $0.list.contains(key) }
  }

  /// Stores `value` under `key` as the most recently used entry, then evicts
  /// least recently used entries until the limits hold. A value whose cost
  /// alone exceeds the cost limit is not stored (and any old entry for the
  /// key is dropped).
  @inlinable
  public func setValue(_ value: Value, forKey key: Key, cost: Int) {
    let time = now()
    let evicted: [Value] = state.withLock { state in
      guard cost <= state.limits.totalCost else {
        return state.list.removeValue(forKey: key).map { [$0] } ?? []
      }
      state.list.set(value, forKey: key, cost: cost, expiresAt: time + state.limits.expiration.interval)
      return Self.evict(&state)
    }
    // Evicted values are released here, outside the lock.
    _ = evicted
  }

  /// Removes `key`'s entry; returns its value.
  @discardableResult
  public func removeValue(forKey key: Key) -> Value? {
    state.withLock { $0.list.removeValue(forKey: key) }
  }

  /// Removes every entry.
  public func removeAll() {
    let old = state.withLock { state -> LRUList<Key, Value> in
      let old = state.list
      state.list = LRUList()
      return old
    }
    _ = old
  }

  /// Removes entries that have expired; returns how many.
  @discardableResult
  public func removeExpired() -> Int {
    let time = now()
    return state.withLock { $0.list.removeExpired(now: time) }
  }

  /// Evicts least recently used entries until the total cost is at most
  /// `cost` (use on memory pressure: `trim(toCost: 0)` empties the cache).
  public func trim(toCost cost: Int) {
    let evicted = state.withLock { state in
      var evicted: [Value] = []
      while state.list.totalCost > max(cost, 0), let entry = state.list.removeLeastRecent() {
        evicted.append(entry.value)
      }
      return evicted
    }
    _ = evicted
  }

  /// Evicts least recently used entries until at most `count` remain.
  public func trim(toCount count: Int) {
    let evicted = state.withLock { state in
      var evicted: [Value] = []
      while state.list.count > max(count, 0), let entry = state.list.removeLeastRecent() {
        evicted.append(entry.value)
      }
      return evicted
    }
    _ = evicted
  }

  /// The limits in force.
  public var limits: Limits { state.withLock { $0.limits } }

  /// Changes the limits, evicting at once if the cache no longer fits.
  public func setLimits(_ limits: Limits) {
    let evicted = state.withLock { state in
      state.limits = limits
      return Self.evict(&state)
    }
    _ = evicted
  }

  /// The sum of the costs of all entries.
  public var totalCost: Int { state.withLock { $0.list.totalCost } }

  /// The number of entries (expired ones included until they are noticed).
  public var count: Int { state.withLock { $0.list.count } }

  /// Keys from most to least recently used; O(n), for tests and debugging.
  var keysByRecency: [Key] { state.withLock { $0.list.keysByRecency } }

  /// Evicts until the limits hold; returns the evicted values so the caller
  /// releases them after unlocking (freeing big pixel buffers takes time).
  @inlinable
  static func evict(_ state: inout State) -> [Value] {
    var evicted: [Value] = []
    while state.list.totalCost > state.limits.totalCost || state.list.count > (state.limits.count ?? .max) {
      guard let entry = state.list.removeLeastRecent() else { break }
      evicted.append(entry.value)
    }
    return evicted
  }
}
