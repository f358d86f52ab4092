/// The step a callback-driven stage's work waits in now (a queued load, a
/// retry's wait, a fetch, a decode slot) and how to stop it: what
/// ``QueuedDownload`` and ``QueuedDecode`` keep, so that cancelling the
/// work stops whichever step it has reached, and a step kept after the
/// cancellation stops at once.
final class StageStep: Sendable {
  private struct State {
    var cancelled = false
    var stop: (@Sendable () -> Void)?
  }

  private let state = Lock(State())

  /// Whether the work was cancelled.
  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Keeps how to stop the current step; stops it at once when the work
  /// was cancelled meanwhile.
  func keep(_ stop: @escaping @Sendable () -> Void) {
    let cancelled = state.withLock { state in
      state.stop = stop
      return state.cancelled
    }
    if cancelled { stop() }
  }

  /// The current step ended: drops how to stop it (it holds what calls
  /// back into the work, which holds this).
  func ended() {
    state.withLock { $0.stop = nil }
  }

  /// Cancels the work: stops the current step.
  func cancel() {
    let stop = state.withLock { state in
      state.cancelled = true
      return state.stop
    }
    stop?()
  }
}
