/// The rules of shared pipeline work, written once, as a value: identical
/// work is shared; it runs at the highest priority among its subscribers;
/// its events reach every subscriber; its outcome reaches every subscriber,
/// whether it waited before or after the outcome came in; and the work
/// stops when the last subscriber leaves. Each event returns what the
/// owner must do, so the rules are tested synchronously.
///
/// `package` so that `magpie cache-bench engine` can time these rules
/// under the lock and under an actor. Both kinds of shared work apply
/// these rules under the engine lock: a
/// ``PipelineStage`` (a fetch, a decode) and a ``LoadJob`` (a request's
/// processed result). `Subscriber` is what the owner keeps per subscriber
/// (its continuation and observer in a stage, its task and callbacks in a
/// job; a plain value in tests).
package struct SharedWork<Value, Subscriber> {
  /// What a subscriber's waiting gets.
  enum WaitAction {
    /// The outcome is in: deliver it now.
    case deliver(Result<Value, MagpieError>)
    /// Still running: the subscriber now waits for the outcome.
    case wait
    /// The subscriber left before it started waiting.
    case cancelled
  }

  /// What leaving asks for.
  struct LeaveAction {
    /// The departed subscriber, to be told of its cancellation.
    var subscriber: Subscriber?
    /// Nobody is left: stop the work.
    var cancelsWork: Bool
    /// The work's priority changed (the highest among those left).
    var newPriority: ImageRequest.Priority?
  }

  private struct Entry {
    var priority: ImageRequest.Priority
    var subscriber: Subscriber
    /// Whether the outcome goes to it when it comes in (otherwise it gets
    /// the outcome when it starts waiting).
    var isWaiting: Bool
  }

  private var entries: [Int: Entry] = [:]
  private var nextID = 0
  private var outcome: Result<Value, MagpieError>?
  /// True once the outcome is in or every subscriber left.
  private(set) var isClosed = false
  /// The priority the work runs at (the highest subscriber's).
  private(set) var priority: ImageRequest.Priority

  /// Work that starts at `priority`.
  package init(priority: ImageRequest.Priority) {
    self.priority = priority
  }

  /// Whether every subscriber left before the outcome came in.
  var isAbandoned: Bool { isClosed && outcome == nil }

  /// How many subscribers are waiting for the outcome.
  var subscriberCount: Int { entries.count }

  /// The subscribers an event of the running work reaches (none once it
  /// is closed).
  package var subscribers: [Subscriber] { isClosed ? [] : entries.values.map { $0.subscriber } }

  /// Adds `subscriber` at `priority`, waiting for the outcome from now on
  /// when `waiting`; returns its id and, when the work's priority rose,
  /// the new one. `nil` when the work is closed (the caller starts anew).
  package mutating func join(
    _ subscriber: Subscriber, priority: ImageRequest.Priority, waiting: Bool
  ) -> (id: Int, newPriority: ImageRequest.Priority?)? {
    guard !isClosed else { return nil }
    let id = nextID
    nextID += 1
    entries[id] = Entry(priority: priority, subscriber: subscriber, isWaiting: waiting)
    return (id, updatePriority())
  }

  /// Subscriber `id` starts waiting; `attach` updates what is kept for it
  /// (its continuation) when it is to wait.
  mutating func wait(_ id: Int, attach: (inout Subscriber) -> Void) -> WaitAction {
    guard var entry = entries[id] else { return .cancelled }
    if let outcome {
      entries[id] = nil
      return .deliver(outcome)
    }
    attach(&entry.subscriber)
    entry.isWaiting = true
    entries[id] = entry
    return .wait
  }

  /// Subscriber `id` leaves (cancelled). Work whose last subscriber leaves
  /// closes, so nobody joins work that is being stopped.
  mutating func leave(_ id: Int) -> LeaveAction {
    guard let removed = entries.removeValue(forKey: id) else {
      return LeaveAction(subscriber: nil, cancelsWork: false, newPriority: nil)
    }
    if entries.isEmpty && outcome == nil && !isClosed {
      isClosed = true
      return LeaveAction(subscriber: removed.subscriber, cancelsWork: true, newPriority: nil)
    }
    return LeaveAction(
      subscriber: removed.subscriber, cancelsWork: false, newPriority: isClosed ? nil : updatePriority())
  }

  /// Subscriber `id` now wants `priority`; returns the work's new priority
  /// when it changed.
  mutating func setPriority(_ priority: ImageRequest.Priority, of id: Int) -> ImageRequest.Priority? {
    guard !isClosed, entries[id] != nil else { return nil }
    entries[id]?.priority = priority
    return updatePriority()
  }

  /// The work finished: closes it and returns the subscribers to deliver
  /// `result` to. Those not yet waiting get it when they wait.
  package mutating func finish(_ result: Result<Value, MagpieError>) -> [Subscriber] {
    guard outcome == nil else { return [] }
    outcome = result
    isClosed = true
    var delivered: [Subscriber] = []
    for (id, entry) in entries where entry.isWaiting {
      delivered.append(entry.subscriber)
      entries[id] = nil
    }
    return delivered
  }

  private mutating func updatePriority() -> ImageRequest.Priority? {
    guard let highest = entries.values.lazy.map({ $0.priority }).max(), highest != priority else { return nil }
    priority = highest
    return highest
  }
}
