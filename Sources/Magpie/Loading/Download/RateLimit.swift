/// How many transfers may start a second (Nuke's `RateLimiter`): a token
/// bucket that holds `burst` starts and refills at `rate` a second. A
/// list that scrolls fast starts and cancels thousands of loads; the
/// transfers that wait for a start are dropped when they are cancelled,
/// so the origin sees at most `burst` requests at once and `rate` a
/// second after that. Memory and disk hits never reach it.
public struct RateLimit: Sendable, Equatable {
  /// Starts a second, after the burst.
  public var rate: Double
  /// Starts allowed at once after a quiet spell.
  public var burst: Int

  /// At most `burst` starts at once and `rate` a second after.
  public init(rate: Double, burst: Int) {
    self.rate = max(rate, 0.001)
    self.burst = max(burst, 1)
  }

  /// Nuke's defaults: 80 a second, 25 at once.
  public static let `default` = RateLimit(rate: 80, burst: 25)
}
