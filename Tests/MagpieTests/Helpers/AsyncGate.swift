import Magpie

/// A gate tasks wait at until a test opens it, and that tells the test
/// when a number of tasks are waiting: no sleeps, no polling.
final class AsyncGate: Sendable {
  private struct State {
    var isOpen = false
    var waiters: [CheckedContinuation<Void, Never>] = []
    var arrivals = 0
    var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }
  private let state = Lock(State())

  /// Waits until ``open()`` (returns at once after it).
  func wait() async {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
        state.arrivals += 1
        let arrivals = state.arrivals
        let due = state.watchers.filter { $0.count <= arrivals }.map(\.continuation)
        state.watchers.removeAll { $0.count <= arrivals }
        if state.isOpen { return due + [continuation] }
        state.waiters.append(continuation)
        return due
      }
      for waiter in ready { waiter.resume() }
    }
  }

  /// Returns once `count` tasks have arrived at ``wait()``, open or not.
  func untilWaiting(_ count: Int) async throws {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state -> Bool in
        if state.arrivals >= count { return true }
        state.watchers.append((count, continuation))
        return false
      }
      if now { continuation.resume() }
    }
  }

  /// Lets every waiter, present and future, go on.
  func open() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
