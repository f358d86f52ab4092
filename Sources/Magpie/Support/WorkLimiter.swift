import Dispatch
import Synchronization

/// Runs blocking CPU work (decoding, processing) on its own dispatch queue,
/// at most `limit` items at once, so it never occupies Swift's cooperative
/// threads and never runs more than the stage allows. Waiting work starts
/// highest priority first, oldest first among equals (a ``WorkQueue``), and
/// a waiting item's priority can change through its ``Ticket``. Waiting
/// callers are suspended, not blocked; a caller cancelled while waiting
/// gives up its turn.
final class WorkLimiter: Sendable {
  /// A place in the queue, handed out before the work waits, to change its
  /// priority while it waits.
  struct Ticket: Sendable, Hashable {
    fileprivate let id: Int
  }

  private struct State {
    var queue: WorkQueue
    var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    var nextID = 0
    /// Callers of ``waitUntilWaiting(_:)`` and the count each waits for.
    var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// The watchers whose count of waiting items is reached, removed.
    mutating func satisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
      let waiting = queue.waitingCount
      defer { watchers.removeAll { $0.count <= waiting } }
      return watchers.filter { $0.count <= waiting }.map(\.continuation)
    }
  }

  private let state: Lock<State>
  private let queue: DispatchQueue

  /// A limiter running at most `limit` items at once on a queue named `label`.
  init(label: String, limit: Int) {
    state = Lock(State(queue: WorkQueue(maximumRunning: max(1, limit), order: .fifo)))
    queue = DispatchQueue(label: label, qos: .userInitiated, attributes: .concurrent)
  }

  /// Waits for a slot (ahead of waiting work of lower `priority`), runs
  /// `work` on the limiter's queue, and returns its result. `queued` gets
  /// the work's ticket once it is in line (or has started). Throws
  /// ``MagpieError/Code/cancelled`` if the task is cancelled before the work
  /// starts.
  func run<T: Sendable>(
    priority: DownloadPriority = .normal, queued: ((Ticket) -> Void)? = nil,
    _ work: @escaping @Sendable () throws(MagpieError) -> T
  ) async throws(MagpieError) -> T {
    let ticket = Ticket(
      id: state.withLock { state in
        defer { state.nextID += 1 }
        return state.nextID
      })
    try await acquire(ticket, priority: priority, queued: queued)
    defer { release(ticket) }
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

  /// Returns once at least `count` items wait for a slot: lets a test (or
  /// a diagnostic) act on a known queue without sleeping.
  func waitUntilWaiting(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.queue.waitingCount >= count { return true }
        state.watchers.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Moves waiting work to `priority`; work already running is unaffected.
  func setPriority(_ priority: DownloadPriority, for ticket: Ticket) {
    state.withLock { $0.queue.setPriority(ticket.id, priority) }
  }

  private func acquire(
    _ ticket: Ticket, priority: DownloadPriority, queued: ((Ticket) -> Void)?
  ) async throws(MagpieError) {
    let id = ticket.id
    let granted = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let (now, watchers) = state.withLock { state -> (Bool?, [CheckedContinuation<Void, Never>]) in
          // Checked under the lock the cancellation handler also takes: it
          // either ran before (and this sees it) or finds the waiter.
          if Task.isCancelled { return (false, []) }
          if state.queue.enqueue(id, priority: priority).contains(id) { return (true, []) }
          state.waiters[id] = continuation
          return (nil, state.satisfiedWatchers())
        }
        for watcher in watchers { watcher.resume() }
        if now != false { queued?(ticket) }
        if let now { continuation.resume(returning: now) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
        guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
        // Removing work that waits frees no slot: nothing else starts.
        _ = state.queue.remove(id)
        return waiter
      }
      waiter?.resume(returning: false)
    }
    guard granted else { throw MagpieError(.cancelled, "cancelled while waiting to run") }
    if Task.isCancelled {
      release(ticket)
      throw MagpieError(.cancelled, "cancelled while waiting to run")
    }
  }

  private func release(_ ticket: Ticket) {
    let next = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
      state.queue.remove(ticket.id).compactMap { state.waiters.removeValue(forKey: $0) }
    }
    for waiter in next { waiter.resume(returning: true) }
  }
}
