import Synchronization

/// The counts behind ``RedisStatistics``, as atomics: every command bumps
/// one, and a lock here would be one more for every command to contend on.
final class RedisCounters: Sendable {
  /// Which count to bump.
  enum Field {
    case hits, coalescedHits, misses, locksTaken, stores, oversized, corrupt, skipped, failures
  }

  private let hits = Atomic<Int>(0)
  private let coalescedHits = Atomic<Int>(0)
  private let misses = Atomic<Int>(0)
  private let locksTaken = Atomic<Int>(0)
  private let stores = Atomic<Int>(0)
  private let oversized = Atomic<Int>(0)
  private let corrupt = Atomic<Int>(0)
  private let skipped = Atomic<Int>(0)
  private let failures = Atomic<Int>(0)

  /// Adds one to `field`.
  func add(_ field: Field) {
    switch field {
    case .hits: hits.add(1, ordering: .relaxed)
    case .coalescedHits: coalescedHits.add(1, ordering: .relaxed)
    case .misses: misses.add(1, ordering: .relaxed)
    case .locksTaken: locksTaken.add(1, ordering: .relaxed)
    case .stores: stores.add(1, ordering: .relaxed)
    case .oversized: oversized.add(1, ordering: .relaxed)
    case .corrupt: corrupt.add(1, ordering: .relaxed)
    case .skipped: skipped.add(1, ordering: .relaxed)
    case .failures: failures.add(1, ordering: .relaxed)
    }
  }

  /// The counts now.
  var snapshot: RedisStatistics {
    var counts = RedisStatistics()
    counts.hits = hits.load(ordering: .relaxed)
    counts.coalescedHits = coalescedHits.load(ordering: .relaxed)
    counts.misses = misses.load(ordering: .relaxed)
    counts.locksTaken = locksTaken.load(ordering: .relaxed)
    counts.stores = stores.load(ordering: .relaxed)
    counts.oversized = oversized.load(ordering: .relaxed)
    counts.corrupt = corrupt.load(ordering: .relaxed)
    counts.skipped = skipped.load(ordering: .relaxed)
    counts.failures = failures.load(ordering: .relaxed)
    return counts
  }
}
