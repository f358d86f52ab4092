/// When and how long to wait before trying a failed download again:
/// exponential backoff for transient failures (timeouts, dropped
/// connections, 5xx, and 429 with its `Retry-After`); never for other 4xx
/// answers or bodies that are not images.
public struct RetryPolicy: Sendable, Equatable {
  /// Attempts in all, the first included; 1 disables retrying.
  public var maximumAttempts: Int
  /// The wait before the second attempt; each later wait doubles.
  public var initialDelay: Duration
  /// The longest wait, whatever the backoff or the server asks.
  public var maximumDelay: Duration

  /// Three attempts, waiting 0.5 s then 1 s, never more than 30 s.
  public init(
    maximumAttempts: Int = 3, initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30)
  ) {
    self.maximumAttempts = max(1, maximumAttempts)
    self.initialDelay = initialDelay
    self.maximumDelay = maximumDelay
  }

  /// No retries.
  public static let never = RetryPolicy(maximumAttempts: 1)

  /// Whether a failure of this kind may succeed if tried again: a network
  /// failure, a timeout, a body cut short, a 5xx, 429 or 408.
  public static func isTransient(_ error: MagpieError) -> Bool {
    // A body cut part-way (a short one included): the next attempt asks
    // for the rest where the server allows it.
    if error.cutsTransfer { return true }
    switch error.code {
    case .timedOut, .network: return true
    case .httpStatus:
      guard let status = error.statusCode else { return false }
      return status >= 500 || status == 429 || status == 408
    default: return false
    }
  }

  /// The wait before attempt number `attempt + 1` after `error`, or `nil`
  /// when it should not be retried.
  public func delay(afterAttempt attempt: Int, error: MagpieError) -> Duration? {
    guard attempt < maximumAttempts, Self.isTransient(error) else { return nil }
    var wait = initialDelay
    for _ in 1..<attempt { wait *= 2 }
    if let asked = error.retryAfter { wait = max(wait, asked) }
    return min(wait, maximumDelay)
  }
}
