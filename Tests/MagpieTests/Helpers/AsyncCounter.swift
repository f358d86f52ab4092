import Magpie

/// Counts events and lets a test await a number of them.
final class AsyncCounter: Sendable {
  private let state = Lock<(count: Int, waiters: [(Int, CheckedContinuation<Void, Never>)])>((0, []))

  func increment() {
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.count += 1
      let count = state.count
      let ready = state.waiters.filter { $0.0 <= count }.map(\.1)
      state.waiters.removeAll { $0.0 <= count }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

  func wait(for count: Int) async {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state -> Bool in
        if state.count >= count { return true }
        state.waiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }
}
