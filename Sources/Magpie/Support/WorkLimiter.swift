import Dispatch

/// Runs blocking CPU work (decoding, processing) on its own dispatch queue,
/// at most `limit` items at once, so it never occupies Swift's cooperative
/// threads and never runs more than the stage allows. Waiting callers are
/// suspended, not blocked; a caller cancelled while waiting gives up its
/// turn.
final class WorkLimiter: Sendable {
  private struct State {
    var available: Int
    var waiters: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    var nextID = 0
  }

  private let state: Lock<State>
  private let queue: DispatchQueue

  /// A limiter running at most `limit` items at once on a queue named `label`.
  init(label: String, limit: Int) {
    state = Lock(State(available: max(1, limit)))
    queue = DispatchQueue(label: label, qos: .userInitiated, attributes: .concurrent)
  }

  /// Waits for a slot, runs `work` on the limiter's queue, and returns its
  /// result. Throws ``MagpieError/Code/cancelled`` if the task is cancelled
  /// before the work starts.
  func run<T: Sendable>(_ work: @escaping @Sendable () throws(MagpieError) -> T) async throws(MagpieError) -> T {
    try await acquire()
    defer { release() }
    let result: Result<T, MagpieError> = await withCheckedContinuation { continuation in
      queue.async {
        do throws(MagpieError) {
          continuation.resume(returning: .success(try work()))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
    }
    return try result.get()
  }

  private func acquire() async throws(MagpieError) {
    let id = state.withLock { state -> Int in
      defer { state.nextID += 1 }
      return state.nextID
    }
    let granted = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let now = state.withLock { state -> Bool in
          if state.available > 0 {
            state.available -= 1
            return true
          }
          state.waiters.append((id, continuation))
          return false
        }
        if now { continuation.resume(returning: true) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return state.waiters.remove(at: index).continuation
      }
      waiter?.resume(returning: false)
    }
    guard granted else { throw MagpieError(.cancelled, "cancelled while waiting to run") }
    if Task.isCancelled {
      release()
      throw MagpieError(.cancelled, "cancelled while waiting to run")
    }
  }

  private func release() {
    let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      if state.waiters.isEmpty {
        state.available += 1
        return nil
      }
      return state.waiters.removeFirst().continuation
    }
    next?.resume(returning: true)
  }
}
