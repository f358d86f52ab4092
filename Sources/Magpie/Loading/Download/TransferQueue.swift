/// The line transfers wait in for a slot: at most `maximumRunning` at once,
/// highest priority first, then first-in-first-out or last-in-first-out
/// (a ``WorkQueue``). A waiting transfer is a start action, run by whoever
/// frees a slot: for ``CurlDataLoader`` that is its libcurl thread as a
/// transfer ends, so the next one begins on that thread without waking any
/// task (one wake-up per request, as `curl --parallel` does).
///
/// One transfer's place in the line is a ``Slot``.
final class TransferQueue: Sendable {
  /// Runs when a waiting transfer gets its slot; given its id.
  typealias Start = @Sendable (_ id: Int) -> Void

  private struct State {
    var queue: WorkQueue
    var starts: [Int: Start] = [:]
    var nextID = 0

    /// The start actions of `ids`, which the queue has just started.
    mutating func take(_ ids: [Int]) -> [(Int, Start)] {
      ids.compactMap { id in starts.removeValue(forKey: id).map { (id, $0) } }
    }
  }

  private let state: Lock<State>
  /// Told how many wait each time a transfer joins the line.
  private let observer: (@Sendable (EngineEvent) -> Void)?
  /// The rate limiter a transfer passes after it gets its slot, if any.
  let gate: StartGate?

  /// A line running at most `maximumRunning` transfers at once, reporting
  /// to `observer`, whose starts pass `gate` when there is one.
  init(
    maximumRunning: Int, order: WorkQueue.Order, observer: (@Sendable (EngineEvent) -> Void)? = nil,
    gate: StartGate? = nil
  ) {
    state = Lock(State(queue: WorkQueue(maximumRunning: max(1, maximumRunning), order: order)))
    self.observer = observer
    self.gate = gate
  }

  /// Transfers allowed at once.
  var maximumRunning: Int { state.withLock { $0.queue.maximumRunning } }

  /// Changes how many run at once; raising it starts waiting ones now.
  func setMaximumRunning(_ limit: Int) {
    run(state.withLock { $0.take($0.queue.setMaximumRunning(limit)) })
  }

  /// Transfers running now.
  var runningCount: Int { state.withLock { $0.queue.running.count } }

  /// Transfers waiting for a slot.
  var waitingCount: Int { state.withLock { $0.queue.waitingCount } }

  /// Adds a transfer at `priority`; `start` runs when it gets a slot (at
  /// once, on this thread, when one is free). Returns its id.
  func enqueue(priority: ImageRequest.Priority, start: @escaping Start) -> Int {
    let (id, started, waiting) = state.withLock { state -> (Int, [(Int, Start)], Int) in
      let id = state.nextID
      state.nextID += 1
      state.starts[id] = start
      return (id, state.take(state.queue.enqueue(id, priority: priority)), state.queue.waitingCount)
    }
    observer?(.queued(.download, waiting: waiting))
    run(started)
    return id
  }

  /// Moves a waiting transfer to `priority`.
  func setPriority(_ priority: ImageRequest.Priority, of id: Int) {
    state.withLock { $0.queue.setPriority(id, priority) }
  }

  /// Takes `id` out of the line: a waiting transfer, or one held by the
  /// rate limiter, leaves it (its start never runs; returns `true`), a
  /// running one frees its slot for the next. Calling it again does
  /// nothing.
  @discardableResult
  func remove(_ id: Int) -> Bool {
    let (wasWaiting, started) = state.withLock { state -> (Bool, [(Int, Start)]) in
      let wasWaiting = state.queue.isWaiting(id)
      state.starts[id] = nil
      return (wasWaiting, state.take(state.queue.remove(id)))
    }
    let wasHeld = gate?.drop(id) ?? false
    run(started)
    return wasWaiting || wasHeld
  }

  /// Starts the transfers that got a slot, through the rate limiter when
  /// there is one.
  private func run(_ started: [(Int, Start)]) {
    guard let gate else {
      for (id, start) in started { start(id) }
      return
    }
    for (id, start) in started { gate.admit(id, start) }
  }
}
