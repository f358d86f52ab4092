/// The step a callback-driven stage's work waits in now (a queued load, a
/// retry's wait, a fetch, a decode slot) and how to stop it: what
/// ``QueuedDownload`` and ``QueuedDecode`` keep, so that cancelling the
/// work stops whichever step it has reached, and a step kept after the
/// cancellation stops at once.
///
/// Each step has a ``Token``: a step's end can come (on another thread)
/// before the step's stop is kept, and a stop kept for a step that has
/// ended or been followed by the next is dropped. Kept, it would hold what
/// calls back into the work, which holds this: a cycle that kept every
/// such download's stage and body alive (a cold `magpie serve` grew by
/// tens of kilobytes a miss).
final class StageStep: Sendable {
  /// One step: the latest ``begin()`` gave it.
  struct Token: Sendable, Equatable {
    fileprivate let number: Int
  }

  /// The steps as a value: each event returns the stop to run, if any.
  struct State {
    /// Whether the work was cancelled.
    private(set) var cancelled = false
    /// The latest step begun, and whether it has ended.
    private var current = 0
    private var currentEnded = false
    /// How to stop the latest step, while it runs.
    private(set) var stop: (@Sendable () -> Void)?

    /// A new step, which follows (and drops) the one before.
    mutating func begin() -> Token {
      current += 1
      currentEnded = false
      stop = nil
      return Token(number: current)
    }

    /// Keeps `stop` for `token`'s step, unless that step has ended or a
    /// later one has begun. Returns `stop` when it must run now: the work
    /// was cancelled before it was kept.
    mutating func keep(
      _ stop: @escaping @Sendable () -> Void, for token: Token
    ) -> (@Sendable () -> Void)? {
      guard token.number == current, !currentEnded else { return nil }
      self.stop = stop
      return cancelled ? stop : nil
    }

    /// `token`'s step ended: its stop is dropped.
    mutating func end(_ token: Token) {
      guard token.number == current else { return }
      currentEnded = true
      stop = nil
    }

    /// Cancels the work; returns the stop of the step running now.
    mutating func cancel() -> (@Sendable () -> Void)? {
      cancelled = true
      return stop
    }
  }

  private let state = Lock(State())

  /// Whether the work was cancelled.
  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Begins the next step; pass its token to ``keep(_:for:)`` and
  /// ``end(_:)``.
  func begin() -> Token {
    state.withLock { $0.begin() }
  }

  /// Keeps how to stop `token`'s step; stops it at once when the work was
  /// cancelled meanwhile. Nothing is kept for a step that has ended.
  func keep(_ stop: @escaping @Sendable () -> Void, for token: Token) {
    state.withLock { $0.keep(stop, for: token) }?()
  }

  /// `token`'s step ended: drops how to stop it (it holds what calls back
  /// into the work, which holds this).
  func end(_ token: Token) {
    state.withLock { $0.end(token) }
  }

  /// Cancels the work: stops the current step.
  func cancel() {
    state.withLock { $0.cancel() }?()
  }
}
