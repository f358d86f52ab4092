import Foundation

/// How long a cache entry lives after it was last used.
public enum CacheExpiration: Sendable, Equatable {
  /// Kept until evicted for space or removed.
  case never
  /// Expires this many seconds after its last access.
  case seconds(TimeInterval)
  /// Expires this many days after its last access.
  case days(Int)

  /// The lifetime in seconds; `.infinity` for `.never`.
  public var interval: TimeInterval {
    switch self {
    case .never: .infinity
    case .seconds(let seconds): seconds
    case .days(let days): TimeInterval(days) * 86_400
    }
  }
}
