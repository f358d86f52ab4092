import Magpie

/// The async side of an ``AdmissionQueue``: runs work when a slot is free,
/// makes it wait in the bounded queue, or refuses it at once.
final class AdmissionGate: Sendable {
  private struct State {
    var queue: AdmissionQueue
    var nextID = 0
    var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    /// Waiters given a slot before they could park their continuation.
    var granted: Set<Int> = []
  }
  private let state: Lock<State>

  /// A gate letting `concurrency` run with `capacity` waiting.
  init(concurrency: Int, capacity: Int) {
    state = Lock(State(queue: AdmissionQueue(concurrency: concurrency, capacity: capacity)))
  }

  /// How many run and wait now.
  var load: (running: Int, waiting: Int) { state.withLock { ($0.queue.running, $0.queue.waiting.count) } }

  /// Runs `body` in a slot; `nil` without running it when the queue is
  /// full or the task is cancelled while waiting.
  func run<T: Sendable>(_ body: () async -> T) async -> T? {
    let (id, decision) = state.withLock { state -> (Int, AdmissionQueue.Decision) in
      state.nextID += 1
      return (state.nextID, state.queue.arrive(state.nextID))
    }
    switch decision {
    case .reject: return nil
    case .run: break
    case .wait:
      let admitted = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          let ready = state.withLock { state -> Bool? in
            // Given a slot, or abandoned, before getting here.
            if state.granted.remove(id) != nil { return true }
            if !state.queue.waiting.contains(id) { return false }
            state.waiters[id] = continuation
            return nil
          }
          if let ready { continuation.resume(returning: ready) }
        }
      } onCancel: {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
          state.queue.abandon(id) ? state.waiters.removeValue(forKey: id) : nil
        }
        waiter?.resume(returning: false)
      }
      guard admitted else { return nil }
    }
    let result = await body()
    release()
    return result
  }

  private func release() {
    let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard let id = state.queue.finish() else { return nil }
      guard let waiter = state.waiters.removeValue(forKey: id) else {
        state.granted.insert(id)
        return nil
      }
      return waiter
    }
    next?.resume(returning: true)
  }
}
