import Dispatch

/// The time a ``StartGate`` reads and how it waits: the monotonic clock
/// and a dispatch timer, or a virtual clock in tests.
struct RateClock: Sendable {
  /// The time now, from a fixed origin.
  let now: @Sendable () -> Duration
  /// Runs the action after the delay.
  let after: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

  /// The monotonic clock, with timers on a global dispatch queue.
  static let system: RateClock = {
    let clock = ContinuousClock()
    let origin = clock.now
    return RateClock(
      now: { clock.now - origin },
      after: { delay, action in
        let nanoseconds = max(
          0, delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds)), execute: action)
      })
  }()
}
