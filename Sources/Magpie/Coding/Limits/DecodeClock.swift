/// The clock a decode's time limit is measured on: the real monotonic
/// clock, or in tests a virtual one that advances as the test says, so the
/// limit is tested without sleeping or timing anything.
package struct DecodeClock: Sendable {
  /// The current instant on this clock.
  package let now: @Sendable () -> ContinuousClock.Instant

  /// A clock reading `now`.
  package init(now: @escaping @Sendable () -> ContinuousClock.Instant) {
    self.now = now
  }

  /// The real monotonic clock (`ContinuousClock`).
  package static let continuous = DecodeClock { ContinuousClock.now }
}
