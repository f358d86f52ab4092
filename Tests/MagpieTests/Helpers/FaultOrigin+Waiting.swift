import Dispatch
import Magpie

extension FaultOrigin {
  /// Waits until `count` requests for `path` have arrived. Returns `false`
  /// if that has not happened after `limit` (a failing test, not a hang).
  @discardableResult
  func waitForRequests(_ path: String, count: Int = 1, limit: Duration = .seconds(30)) async -> Bool {
    await wait(.request, path: path, count: count, limit: limit)
  }

  /// Waits until a client has closed a connection on which `path` was
  /// requested. Returns `false` if none has after `limit` (60 s, four
  /// times that under ThreadSanitizer: FoundationNetworking's URLSession,
  /// the second loader these tests run, has taken over 120 s there to
  /// close an endless body's connection after a cancel, with the machine
  /// loaded, and 2-34 s in other runs).
  @discardableResult
  func waitForClientClose(_ path: String, limit: Duration = .seconds(60)) async -> Bool {
    await wait(.close, path: path, count: 1, limit: limit)
  }

  private func wait(_ kind: Kind, path: String, count: Int, limit: Duration) async -> Bool {
    let id = state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let immediate = state.withLock { state -> Bool? in
        if Self.reached(kind, path: path, count: count, in: state) { return true }
        if state.stopped { return false }
        state.waiters.append(Waiter(path: path, count: count, kind: kind, continuation: continuation, id: id))
        return nil
      }
      if let immediate {
        continuation.resume(returning: immediate)
        return
      }
      // A watchdog, not a wait for work: it only fires when the test is
      // failing, so that it fails instead of hanging. Longer under TSan.
      let watchdog = limit * Sanitizer.slowdown
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(watchdog.wholeMilliseconds)) { [self] in
        let expired = state.withLock { state -> Waiter? in
          guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
          return state.waiters.remove(at: index)
        }
        expired?.continuation.resume(returning: false)
      }
    }
  }

  private static func reached(_ kind: Kind, path: String, count: Int, in state: State) -> Bool {
    switch kind {
    case .request: return state.requests.lazy.filter { Self.path(of: $0.target) == path }.count >= count
    case .close: return (state.closes[path] ?? 0) >= count
    }
  }

  /// Resumes the waiters whose condition now holds.
  func signal(_ state: inout State) {
    var remaining: [Waiter] = []
    for waiter in state.waiters {
      if Self.reached(waiter.kind, path: waiter.path, count: waiter.count, in: state) {
        waiter.continuation.resume(returning: true)
      } else {
        remaining.append(waiter)
      }
    }
    state.waiters = remaining
  }

  static func path(of target: String) -> String {
    String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
  }
}
