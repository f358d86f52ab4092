/// One piece of shared pipeline work (a fetch or a decode) and the
/// subscribers waiting for it, in the manner of Nuke's tasks: identical
/// work joins one stage, and the stage's work is cancelled only when its
/// last subscriber leaves. Its queued work runs at the highest priority
/// among its subscribers. The rules live in ``SharedWork``; this class
/// applies them under a lock and runs the work.
final class PipelineStage<Value: Sendable>: Sendable {
  typealias Waiter = CheckedContinuation<Result<Value, MagpieError>, Never>

  /// What the stage keeps per subscriber.
  struct Member {
    var observer: (@Sendable (StageEvent) -> Void)?
    var waiter: Waiter?
  }

  private struct Shared {
    var machine: SharedWork<Value, Member>
    var work: Task<Void, Never>?
    /// Moves the stage's queued work (a download, a decode slot) to a new
    /// priority; set by the work for the step it waits in.
    var reprioritize: (@Sendable (ImageRequest.Priority) -> Void)?
    /// Drops the stage from its table once it takes no more subscribers.
    var closed: (@Sendable () -> Void)?
  }

  /// The stage table's key.
  let key: String
  private let state: Lock<Shared>

  init(key: String, priority: ImageRequest.Priority) {
    self.key = key
    state = Lock(Shared(machine: SharedWork(priority: priority)))
  }

  /// The priority the stage's work should wait at now.
  var priority: ImageRequest.Priority { state.withLock { $0.machine.priority } }

  /// Subscribers waiting for the outcome.
  var subscriberCount: Int { state.withLock { $0.machine.subscriberCount } }

  /// Joins the stage; `nil` once it is closed (finished or abandoned).
  /// `observer` gets the stage's events until the subscriber leaves.
  func subscribe(
    priority: ImageRequest.Priority, observer: (@Sendable (StageEvent) -> Void)?
  ) -> StageSubscription<Value>? {
    let joined = state.withLock { shared -> (Int, (@Sendable (ImageRequest.Priority) -> Void)?, ImageRequest.Priority?)? in
      let member = Member(observer: observer, waiter: nil)
      guard let (id, raised) = shared.machine.join(member, priority: priority, waiting: false) else { return nil }
      return (id, shared.reprioritize, raised)
    }
    guard let (id, handler, raised) = joined else { return nil }
    if let raised { handler?(raised) }
    return StageSubscription(stage: self, id: id)
  }

  /// Starts `work` on a task of its own; `closed` runs once the stage takes
  /// no more subscribers (to drop it from its table).
  func start(
    _ work: @escaping @Sendable (PipelineStage<Value>) async throws(MagpieError) -> Value,
    closed: @escaping @Sendable () -> Void
  ) {
    let task = Task.detached { [self] in
      let result: Result<Value, MagpieError>
      do throws(MagpieError) {
        result = .success(try await work(self))
      } catch {
        result = .failure(error)
      }
      let (members, closed) = state.withLock { shared -> ([Member], (@Sendable () -> Void)?) in
        shared.reprioritize = nil
        defer { shared.closed = nil }
        return (shared.machine.finish(result), shared.closed)
      }
      closed?()
      for member in members { member.waiter?.resume(returning: result) }
    }
    state.withLock { shared in
      shared.work = task
      shared.closed = closed
    }
  }

  /// Installs how to move the work's current wait to a new priority;
  /// applies it at once if the priority changed since `startedAt`.
  func onPriorityChange(startedAt: ImageRequest.Priority, _ handler: (@Sendable (ImageRequest.Priority) -> Void)?) {
    let current = state.withLock { shared -> ImageRequest.Priority in
      shared.reprioritize = handler
      return shared.machine.priority
    }
    if current != startedAt { handler?(current) }
  }

  /// Passes `event` to every subscriber's observer.
  func send(_ event: StageEvent) {
    let members = state.withLock { $0.machine.subscribers }
    for member in members { member.observer?(event) }
  }

  // MARK: A subscriber's side

  func wait(_ id: Int) async -> Result<Value, MagpieError> {
    await withCheckedContinuation { (continuation: Waiter) in
      switch state.withLock({ $0.machine.wait(id) { $0.waiter = continuation } }) {
      case .deliver(let result): continuation.resume(returning: result)
      case .wait: break
      case .cancelled: continuation.resume(returning: .failure(Self.cancellation))
      }
    }
  }

  func leave(_ id: Int) {
    typealias Left = (
      SharedWork<Value, Member>.LeaveAction, Task<Void, Never>?, (@Sendable (ImageRequest.Priority) -> Void)?,
      (@Sendable () -> Void)?
    )
    let (action, work, handler, closed) = state.withLock { shared -> Left in
      let action = shared.machine.leave(id)
      guard action.cancelsWork else { return (action, nil, shared.reprioritize, nil) }
      defer { shared.closed = nil }
      return (action, shared.work, nil, shared.closed)
    }
    if action.cancelsWork {
      closed?()
      work?.cancel()
    } else if let lowered = action.newPriority {
      handler?(lowered)
    }
    let cancelled: Result<Value, MagpieError> = .failure(Self.cancellation)
    action.subscriber?.waiter?.resume(returning: cancelled)
  }

  func setPriority(_ priority: ImageRequest.Priority, of id: Int) {
    let (changed, handler) = state.withLock {
      shared -> (ImageRequest.Priority?, (@Sendable (ImageRequest.Priority) -> Void)?) in
      (shared.machine.setPriority(priority, of: id), shared.reprioritize)
    }
    if let changed { handler?(changed) }
  }

  static var cancellation: MagpieError { MagpieError(.cancelled, "every task waiting for this work was cancelled") }
}
