/// What a ``RedisStorage`` has done since it was made: for logs, the demo
/// and benchmarks.
public struct RedisStatistics: Sendable, Equatable {
  /// Reads that found a valid entry at once.
  public var hits = 0
  /// Reads that found another instance's entry after waiting for it.
  public var coalescedHits = 0
  /// Reads that found nothing (or waited in vain).
  public var misses = 0
  /// Misses after which this instance took the key's lock and fetched.
  public var locksTaken = 0
  /// Entries written.
  public var stores = 0
  /// Entries not written: larger than the value size cap.
  public var oversized = 0
  /// Values that failed their checks, deleted and counted as misses.
  public var corrupt = 0
  /// Calls skipped because the circuit breaker was open.
  public var skipped = 0
  /// Calls that failed (refused, broken, timed out).
  public var failures = 0

  /// No counts.
  public init() {}
}
