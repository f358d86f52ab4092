extension TransferQueue {
  /// One transfer's place in a ``TransferQueue``: it joins the line at its
  /// priority, follows priority changes while it waits, and gives its slot
  /// back when the transfer ends. The wait for the turn is either an action
  /// run on the thread that frees the slot (``enqueue(onStart:)``) or an
  /// awaited turn (``waitForTurn()``).
  final class Slot: Sendable {
    private struct State {
      var priority: ImageRequest.Priority
      var id: Int?
      var enqueued: ContinuousClock.Instant?
      var started: ContinuousClock.Instant?
      var released = false
      var waiter: CheckedContinuation<Bool, Never>?
    }

    private let queue: TransferQueue
    private let state: Lock<State>

    /// A place in `queue`, not yet in line, at `priority`.
    init(queue: TransferQueue, priority: ImageRequest.Priority) {
      self.queue = queue
      state = Lock(State(priority: priority))
    }

    /// Joins the line. `onStart` runs when the turn comes: maybe at once
    /// on this thread, maybe on the thread of the transfer that ends
    /// before it. Nothing happens if the slot was already released.
    func enqueue(onStart: (@Sendable () -> Void)? = nil) {
      let clock = ContinuousClock()
      guard
        let priority = state.withLock({ state -> ImageRequest.Priority? in
          guard !state.released, state.id == nil else { return nil }
          state.enqueued = clock.now
          return state.priority
        })
      else { return }
      let id = queue.enqueue(priority: priority) { [self] id in
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
          state.id = id
          state.started = clock.now
          defer { state.waiter = nil }
          return state.waiter
        }
        onStart?()
        waiter?.resume(returning: true)
      }
      // A priority set, or a release, while the transfer was joining
      // applies now.
      let (moved, released) = state.withLock { state -> (ImageRequest.Priority?, Bool) in
        state.id = id
        return (state.priority != priority ? state.priority : nil, state.released)
      }
      if released {
        queue.remove(id)
      } else if let moved {
        queue.setPriority(moved, of: id)
      }
    }

    /// Joins the line (if not yet in it) and returns when the turn comes.
    /// Cancelling the task gives the place up and throws
    /// ``MagpieError/Code/cancelled``; the caller releases the slot in any
    /// case.
    func waitForTurn() async throws(MagpieError) {
      let granted = await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
          let ready = state.withLock { state -> Bool? in
            if state.released { return false }
            if state.started != nil { return true }
            state.waiter = continuation
            return nil
          }
          if let ready { return continuation.resume(returning: ready) }
          enqueue()
        }
      } onCancel: {
        giveUp()
      }
      guard granted, !Task.isCancelled else {
        throw MagpieError(.cancelled, "the download was cancelled while waiting for a slot")
      }
    }

    /// Moves the transfer to `priority` while it waits.
    func setPriority(_ priority: ImageRequest.Priority) {
      let id = state.withLock { state -> Int? in
        state.priority = priority
        return state.id
      }
      if let id { queue.setPriority(priority, of: id) }
    }

    /// The transfer ended (or never will start): leaves the line, or frees
    /// the slot for the next transfer. Returns whether it was still
    /// waiting (its start will never run).
    @discardableResult
    func release() -> Bool {
      let id = state.withLock { state -> Int? in
        state.released = true
        return state.id
      }
      guard let id else { return true }
      return queue.remove(id)
    }

    /// How long the transfer waited for its slot.
    var queueWait: Duration {
      state.withLock { state in
        guard let enqueued = state.enqueued, let started = state.started else { return .zero }
        return started - enqueued
      }
    }

    /// Cancelled while awaiting the turn: a waiting place is given up and
    /// its waiter told so; one already granted is released by the caller.
    private func giveUp() {
      let id = state.withLock { state -> Int? in
        guard state.started == nil else { return nil }
        state.released = true
        return state.id
      }
      if let id, !queue.remove(id) { return }
      let waiter = state.withLock { state in
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: false)
    }
  }
}
