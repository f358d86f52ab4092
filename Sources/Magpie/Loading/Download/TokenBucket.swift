/// The rate limiter's arithmetic as a value: `burst` tokens, refilled at
/// `rate` a second, one spent per start. Time is given, never read, so
/// the tests drive it with a virtual clock.
struct TokenBucket: Sendable {
  let limit: RateLimit
  private var tokens: Double
  private var refilled: Duration

  /// A full bucket at time `now`.
  init(_ limit: RateLimit, now: Duration) {
    self.limit = limit
    tokens = Double(limit.burst)
    refilled = now
  }

  /// Spends a token at `now`: `nil` when there was one, else how long
  /// until there is.
  mutating func take(at now: Duration) -> Duration? {
    refill(at: now)
    if tokens >= 1 {
      tokens -= 1
      return nil
    }
    return .seconds((1 - tokens) / limit.rate)
  }

  private mutating func refill(at now: Duration) {
    guard now > refilled else { return }
    let elapsed = Double((now - refilled).components.seconds) + Double((now - refilled).components.attoseconds) / 1e18
    tokens = min(Double(limit.burst), tokens + elapsed * limit.rate)
    refilled = now
  }
}
