/// Whether the Redis tier is tried: after ``threshold`` failures in a row
/// the breaker opens and calls are skipped without touching the network;
/// when the retry interval has passed one call probes the server, and its
/// success closes the breaker (its failure doubles the interval, up to the
/// maximum). A value that takes events with the time they happen and
/// returns the log line of a state change, so it is tested synchronously.
struct RedisCircuitBreaker<Instant: InstantProtocol> where Instant.Duration == Duration {
  /// Where the breaker stands.
  enum State: Equatable {
    /// Calls go through; `failures` in a row so far.
    case closed(failures: Int)
    /// Calls are skipped until `retryAt`.
    case open(retryAt: Instant)
    /// One call is probing the server; the others are skipped.
    case probing
  }

  let threshold: Int
  let baseInterval: Duration
  let maximumInterval: Duration
  private(set) var state: State = .closed(failures: 0)
  private(set) var interval: Duration

  init(threshold: Int, retryInterval: Duration, maximumInterval: Duration) {
    self.threshold = max(1, threshold)
    baseInterval = retryInterval
    self.maximumInterval = max(retryInterval, maximumInterval)
    interval = retryInterval
  }

  /// Whether a call may go to the server at `now`. An open breaker past its
  /// retry time lets this one call probe.
  mutating func allowsCall(at now: Instant) -> Bool {
    switch state {
    case .closed: return true
    case .probing: return false
    case .open(let retryAt):
      guard now >= retryAt else { return false }
      state = .probing
      return true
    }
  }

  /// A call succeeded; returns a line when that closed the breaker.
  mutating func recordSuccess() -> String? {
    let wasOpen = state == .probing
    state = .closed(failures: 0)
    interval = baseInterval
    return wasOpen ? "the tier is back" : nil
  }

  /// A call failed at `now` for `reason`; returns a line when that opened
  /// the breaker.
  mutating func recordFailure(at now: Instant, reason: String) -> String? {
    switch state {
    case .closed(let failures) where failures + 1 < threshold:
      state = .closed(failures: failures + 1)
      return nil
    case .closed:
      state = .open(retryAt: now.advanced(by: interval))
      return "the tier is down (\(reason)); skipping it, retrying in \(interval)"
    case .probing:
      interval = min(interval * 2, maximumInterval)
      state = .open(retryAt: now.advanced(by: interval))
      return nil
    case .open:
      return nil
    }
  }
}
