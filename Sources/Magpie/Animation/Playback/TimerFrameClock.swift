import Dispatch

/// A frame clock on a real clock: ticks `ticksPerSecond` times a second
/// from a dispatch timer, with the time read from the monotonic clock at
/// each tick (so a late tick says how late it is).
public final class TimerFrameClock: FrameClock {
  private struct State {
    // Dispatch sources are thread-safe objects that Swift does not mark
    // Sendable; this one is only resumed and cancelled, under the lock.
    var timer: UncheckedSendable<any DispatchSourceTimer>?
  }

  /// Ticks a second.
  public let ticksPerSecond: Double
  private let queue: DispatchQueue
  private let origin = ContinuousClock.now
  private let state = Lock(State())

  /// A clock ticking `ticksPerSecond` times a second (60 by default) on
  /// `queue` (a private serial queue by default).
  public init(ticksPerSecond: Double = 60, queue: DispatchQueue? = nil) {
    precondition(ticksPerSecond > 0, "a frame clock ticks at least once in a while")
    self.ticksPerSecond = ticksPerSecond
    self.queue = queue ?? DispatchQueue(label: "magpie.frame-clock", qos: .userInteractive)
  }

  deinit {
    stop()
  }

  /// Starts ticking into `handler`.
  public func start(_ handler: @escaping @Sendable (Duration) -> Void) {
    stop()
    let timer = DispatchSource.makeTimerSource(queue: queue)
    let interval = DispatchTimeInterval.nanoseconds(Int(1e9 / ticksPerSecond))
    let origin = self.origin
    timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .nanoseconds(0))
    timer.setEventHandler { handler(ContinuousClock.now - origin) }
    state.withLock { $0.timer = UncheckedSendable(timer) }
    timer.resume()
  }

  /// Stops ticking.
  public func stop() {
    let timer = state.withLock { state -> UncheckedSendable<any DispatchSourceTimer>? in
      defer { state.timer = nil }
      return state.timer
    }
    timer?.value.cancel()
  }
}
