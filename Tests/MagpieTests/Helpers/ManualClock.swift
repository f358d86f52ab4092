import Foundation
import Magpie

/// A clock tests move by hand: expiry is tested without sleeping.
final class ManualClock: Sendable {
  private let seconds: Lock<Double>

  /// Starts at `start` seconds since 1970.
  init(start: Double = 1_800_000_000) {
    seconds = Lock(start)
  }

  /// Moves the clock forward.
  func advance(by interval: Double) {
    seconds.withLock { $0 += interval }
  }

  /// Monotonic seconds, for ``MemoryCache``.
  var monotonic: @Sendable () -> Double {
    { self.seconds.withLock { $0 } }
  }

  /// Wall-clock dates, for ``DiskCache``.
  var date: @Sendable () -> Date {
    { Date(timeIntervalSince1970: self.seconds.withLock { $0 }) }
  }
}
