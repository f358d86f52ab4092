@testable import Magpie

/// A clock the test moves by hand for the rate limiter: time stands still
/// until ``advance(by:)``, which runs the timers that have come due.
final class VirtualRateClock: Sendable {
  private struct State {
    var now: Duration = .zero
    var timers: [(due: Duration, action: @Sendable () -> Void)] = []
  }

  private let state = Lock(State())

  /// The clock as the limiter reads it.
  var rateClock: RateClock {
    RateClock(
      now: { [self] in state.withLock { $0.now } },
      after: { [self] delay, action in state.withLock { $0.timers.append(($0.now + delay, action)) } })
  }

  /// Timers set and not yet run.
  var pendingTimers: Int { state.withLock { $0.timers.count } }

  /// Moves time on by `step` and runs every timer that came due, in order.
  func advance(by step: Duration) {
    let due = state.withLock { state -> [@Sendable () -> Void] in
      state.now += step
      let now = state.now
      let ready = state.timers.filter { $0.due <= now }.sorted { $0.due < $1.due }.map(\.action)
      state.timers.removeAll { $0.due <= now }
      return ready
    }
    for action in due { action() }
  }
}
