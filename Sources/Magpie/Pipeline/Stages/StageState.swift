/// The shared state of one pipeline stage as a value: who is subscribed at
/// what priority, whether the stage still runs, and its outcome. Each event
/// returns what the stage must do, so the rules are tested synchronously
/// (``PipelineStage`` applies them under its lock).
///
/// `Waiter` is what a subscriber waits with (a continuation in the stage; a
/// plain value in tests).
struct StageState<Value, Waiter> {
  /// What a subscriber's waiting gets.
  enum WaitAction {
    /// The outcome is in: deliver it now.
    case deliver(Result<Value, MagpieError>)
    /// Still running: the waiter was kept.
    case wait
    /// The subscriber left before it started waiting.
    case cancelled
  }

  /// What leaving the stage asks for.
  struct LeaveAction {
    /// The departed subscriber's waiter, to be resumed with a cancellation.
    var waiter: Waiter?
    /// Nobody is left: stop the stage's work.
    var cancelsWork: Bool
    /// The stage's priority changed (the highest among those left).
    var newPriority: DownloadPriority?
  }

  private struct Subscriber {
    var priority: DownloadPriority
    var waiter: Waiter?
  }

  private var subscribers: [Int: Subscriber] = [:]
  private var nextID = 0
  private var outcome: Result<Value, MagpieError>?
  /// True once the outcome is in or every subscriber left.
  private(set) var isClosed = false
  /// The priority the stage's queued work has (the highest subscriber's).
  private(set) var priority: DownloadPriority

  /// A stage that starts with its work at `priority`.
  init(priority: DownloadPriority) {
    self.priority = priority
  }

  /// How many subscribers are waiting for the outcome.
  var subscriberCount: Int { subscribers.count }

  /// Adds a subscriber at `priority`; returns its id and, when the stage's
  /// priority rose, the new one. `nil` when the stage is closed (the
  /// caller starts a new stage).
  mutating func subscribe(priority: DownloadPriority) -> (id: Int, newPriority: DownloadPriority?)? {
    guard !isClosed else { return nil }
    let id = nextID
    nextID += 1
    subscribers[id] = Subscriber(priority: priority)
    return (id, updatePriority())
  }

  /// Subscriber `id` starts waiting with `waiter`.
  mutating func wait(_ id: Int, with waiter: Waiter) -> WaitAction {
    if let outcome, subscribers[id] != nil {
      subscribers[id] = nil
      return .deliver(outcome)
    }
    guard subscribers[id] != nil else { return .cancelled }
    subscribers[id]?.waiter = waiter
    return .wait
  }

  /// Subscriber `id` leaves (cancelled). A stage whose last subscriber
  /// leaves closes, so nobody joins work that is being stopped.
  mutating func leave(_ id: Int) -> LeaveAction {
    guard let removed = subscribers.removeValue(forKey: id) else {
      return LeaveAction(waiter: nil, cancelsWork: false, newPriority: nil)
    }
    if subscribers.isEmpty && outcome == nil && !isClosed {
      isClosed = true
      return LeaveAction(waiter: removed.waiter, cancelsWork: true, newPriority: nil)
    }
    return LeaveAction(waiter: removed.waiter, cancelsWork: false, newPriority: isClosed ? nil : updatePriority())
  }

  /// Subscriber `id` now wants `priority`; returns the stage's new
  /// priority when it changed.
  mutating func setPriority(_ priority: DownloadPriority, of id: Int) -> DownloadPriority? {
    guard !isClosed, subscribers[id] != nil else { return nil }
    subscribers[id]?.priority = priority
    return updatePriority()
  }

  /// The work finished: closes the stage and returns the waiters to
  /// deliver `result` to. Subscribers not yet waiting get it when they wait.
  mutating func finish(_ result: Result<Value, MagpieError>) -> [Waiter] {
    guard outcome == nil else { return [] }
    outcome = result
    isClosed = true
    var waiters: [Waiter] = []
    for (id, subscriber) in subscribers {
      guard let waiter = subscriber.waiter else { continue }
      waiters.append(waiter)
      subscribers[id] = nil
    }
    return waiters
  }

  private mutating func updatePriority() -> DownloadPriority? {
    guard let highest = subscribers.values.map(\.priority).max(), highest != priority else { return nil }
    priority = highest
    return highest
  }
}
