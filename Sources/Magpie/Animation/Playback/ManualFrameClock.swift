/// A frame clock moved by hand: each ``tick(at:)`` or ``advance(by:)``
/// calls the handler at once, on the caller's thread. For tests, and for
/// driving playback from a loop of one's own.
public final class ManualFrameClock: FrameClock {
  private struct State {
    var handler: (@Sendable (Duration) -> Void)?
    var now: Duration = .zero
  }

  private let state = Lock(State())

  /// A stopped clock at time zero.
  public init() {}

  /// The time of the last tick.
  public var now: Duration { state.withLock { $0.now } }

  /// Whether a handler is started.
  public var isRunning: Bool { state.withLock { $0.handler != nil } }

  /// Starts calling `handler` on ticks.
  public func start(_ handler: @escaping @Sendable (Duration) -> Void) {
    state.withLock { $0.handler = handler }
  }

  /// Stops the ticks (later ticks move the time but call nothing).
  public func stop() {
    state.withLock { $0.handler = nil }
  }

  /// Ticks at `time` (which must not go backwards).
  public func tick(at time: Duration) {
    let handler = state.withLock { state -> (@Sendable (Duration) -> Void)? in
      state.now = max(state.now, time)
      return state.handler
    }
    handler?(time)
  }

  /// Ticks `interval` after the last tick.
  public func advance(by interval: Duration) {
    tick(at: now + interval)
  }
}
