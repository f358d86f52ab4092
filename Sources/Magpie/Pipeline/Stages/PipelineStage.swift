/// One piece of shared pipeline work (a fetch or a decode) and the
/// subscribers waiting for it, in the manner of Nuke's tasks: identical
/// work joins one stage, and the stage's work is cancelled only when its
/// last subscriber leaves. Its queued work runs at the highest priority
/// among its subscribers. The rules live in ``SharedWork``; this class
/// applies them under the one ``EngineLock`` and runs the work.
final class PipelineStage<Value: Sendable>: StageEventSink {
  /// Takes the stage's outcome.
  typealias Completion = @Sendable (Result<Value, MagpieError>) -> Void

  /// What the stage keeps per subscriber.
  struct Member {
    var observer: StageObserver?
    var completion: Completion?
    /// Wants the bytes so far with each chunk (``StageEvent/data(_:)``).
    var wantsData: Bool
  }

  private struct Shared {
    var machine: SharedWork<Value, Member>
    /// Stops the work (cancels its task, or its callbacks' transfer).
    var cancelWork: (@Sendable () -> Void)?
    /// What the work waits in now (the stage under it, a place in a
    /// line), which follows the stage's priority; set by the work for the
    /// step it waits in.
    var dependency: StageDependency?
    /// Drops the stage from its table once it takes no more subscribers.
    var closed: (@Sendable () -> Void)?
  }

  private let state: EngineGuarded<Shared>

  init(priority: ImageRequest.Priority) {
    state = EngineGuarded(Shared(machine: SharedWork(priority: priority)))
  }

  /// The priority the stage's work should wait at now.
  var priority: ImageRequest.Priority { state.withLock { $0.machine.priority } }

  /// Subscribers waiting for the outcome.
  var subscriberCount: Int { state.withLock { $0.machine.subscriberCount } }

  /// ``subscriberCount`` with the engine lock held.
  var subscriberCountHoldingLock: Int { state.withHeldLock { $0.machine.subscriberCount } }

  /// Whether any subscriber wants the bytes so far with each chunk.
  var wantsData: Bool { state.withLock { $0.machine.subscribers.contains { $0.wantsData } } }

  /// Joins the stage, with the engine lock held (its table found it in
  /// the same hold); `nil` once it is closed (finished or abandoned).
  /// `observer` gets the stage's events until the subscriber leaves;
  /// `completion`, when given, gets the outcome (or the cancellation when
  /// the subscriber leaves) without a task waiting for it. A higher
  /// priority this join brings moves the stage's dependency in the same
  /// hold; a line's move goes into `deferred`, for the caller to run once
  /// the lock is released.
  func joinHoldingLock(
    priority: ImageRequest.Priority, observer: StageObserver?, wantsData: Bool, completion: Completion?,
    deferred: inout [@Sendable () -> Void]
  ) -> StageSubscription<Value>? {
    let joined = state.withHeldLock { shared -> (Int, ImageRequest.Priority?, StageDependency?)? in
      let member = Member(observer: observer, completion: completion, wantsData: wantsData)
      guard let (id, raised) = shared.machine.join(member, priority: priority, waiting: completion != nil)
      else { return nil }
      return (id, raised, shared.dependency)
    }
    guard let (id, raised, dependency) = joined else { return nil }
    if let raised { dependency?.move(to: raised, holdingEngineLock: &deferred) }
    return StageSubscription(stage: self, id: id)
  }

  /// Sets, with the engine lock held, what runs once the stage takes no
  /// more subscribers (its table drops it then); set before the work
  /// starts.
  func onCloseHoldingLock(_ closed: @escaping @Sendable () -> Void) {
    state.withHeldLock { $0.closed = closed }
  }

  /// Starts `work` on a task of its own.
  func start(_ work: @escaping @Sendable (PipelineStage<Value>) async throws(MagpieError) -> Value) {
    let task = Task.detached { [self] in
      do throws(MagpieError) {
        complete(.success(try await work(self)))
      } catch {
        complete(.failure(error))
      }
    }
    setCancel { task.cancel() }
  }

  /// Starts work driven by callbacks rather than by a task of its own:
  /// `begin` starts it and returns how to stop it, and the work ends by
  /// calling ``complete(_:)`` from whatever thread it ends on (a download:
  /// the libcurl thread, which wakes only the tasks that wait).
  func start(driving begin: (PipelineStage<Value>) -> @Sendable () -> Void) {
    setCancel(begin(self))
  }

  /// The work's outcome: every waiting subscriber gets it now, later ones
  /// when they wait. Only the first call counts.
  func complete(_ result: Result<Value, MagpieError>) {
    let (members, closed) = state.withLock { shared -> ([Member], (@Sendable () -> Void)?) in
      shared.dependency = nil
      shared.cancelWork = nil
      defer { shared.closed = nil }
      return (shared.machine.finish(result), shared.closed)
    }
    closed?()
    for member in members { member.completion?(result) }
  }

  /// Keeps how to stop the work; stops it at once when every subscriber
  /// left before it started.
  private func setCancel(_ cancel: @escaping @Sendable () -> Void) {
    let abandoned = state.withLock { shared -> Bool in
      guard !shared.machine.isClosed else { return shared.machine.isAbandoned }
      shared.cancelWork = cancel
      return false
    }
    if abandoned { cancel() }
  }

  /// The work now waits in `dependency` (`nil`: in nothing), which it
  /// joined at `startedAt`; moves it at once if the stage's priority
  /// changed since.
  func wait(on dependency: StageDependency?, startedAt: ImageRequest.Priority) {
    EngineLock.withLock { deferred in
      let current = state.withHeldLock { shared -> ImageRequest.Priority in
        shared.dependency = dependency
        return shared.machine.priority
      }
      if current != startedAt { dependency?.move(to: current, holdingEngineLock: &deferred) }
    }
  }

  /// Passes `event` to every subscriber's observer: through every stage
  /// and job that waits on this one in one hold of the engine lock, then
  /// to the callbacks once it is released.
  func send(_ event: StageEvent) {
    EngineLock.withLock { deliveries in receive(event, holdingEngineLock: &deliveries) }
  }

  func receive(_ event: StageEvent, holdingEngineLock deliveries: inout [@Sendable () -> Void]) {
    for member in state.withHeldLock({ $0.machine.subscribers }) {
      member.observer?.pass(event, holdingEngineLock: &deliveries)
    }
  }

  // MARK: A subscriber's side

  func wait(_ id: Int) async -> Result<Value, MagpieError> {
    await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, MagpieError>, Never>) in
      let completion: Completion = { continuation.resume(returning: $0) }
      switch state.withLock({ $0.machine.wait(id) { $0.completion = completion } }) {
      case .deliver(let result): continuation.resume(returning: result)
      case .wait: break
      case .cancelled: continuation.resume(returning: .failure(Self.cancellation))
      }
    }
  }

  func leave(_ id: Int) {
    typealias Left = (
      SharedWork<Value, Member>.LeaveAction, (@Sendable () -> Void)?, StageDependency?, (@Sendable () -> Void)?
    )
    let (action, work, closed) = EngineLock.withLock { deferred in
      let (action, work, dependency, closed) = state.withHeldLock { shared -> Left in
        let action = shared.machine.leave(id)
        guard action.cancelsWork else { return (action, nil, shared.dependency, nil) }
        defer { shared.closed = nil }
        return (action, shared.cancelWork, nil, shared.closed)
      }
      if let lowered = action.newPriority { dependency?.move(to: lowered, holdingEngineLock: &deferred) }
      return (action, work, closed)
    }
    if action.cancelsWork {
      closed?()
      work?()
    }
    let cancelled: Result<Value, MagpieError> = .failure(Self.cancellation)
    action.subscriber?.completion?(cancelled)
  }

  func setPriority(_ priority: ImageRequest.Priority, of id: Int) {
    EngineLock.withLock { deferred in setPriority(priority, of: id, holdingEngineLock: &deferred) }
  }

  /// Subscriber `id` now wants `priority`, with the engine lock held: a
  /// change of the stage's priority moves its dependency in the same hold.
  func setPriority(
    _ priority: ImageRequest.Priority, of id: Int, holdingEngineLock deferred: inout [@Sendable () -> Void]
  ) {
    let (changed, dependency) = state.withHeldLock { shared in
      (shared.machine.setPriority(priority, of: id), shared.dependency)
    }
    if let changed { dependency?.move(to: changed, holdingEngineLock: &deferred) }
  }

  static var cancellation: MagpieError { MagpieError(.cancelled, "every task waiting for this work was cancelled") }

  /// The outcome of `dependency`, work this stage's work waits on (the
  /// fetch under a decode, the download under a fetch): while it waits,
  /// this stage's priority is the dependency's, and cancelling this work
  /// leaves the dependency.
  func awaiting<Dependency: Sendable>(
    _ dependency: StageSubscription<Dependency>, subscribedAt: ImageRequest.Priority
  ) async throws(MagpieError) -> Dependency {
    wait(on: .stage(dependency), startedAt: subscribedAt)
    defer { wait(on: nil, startedAt: subscribedAt) }
    return try await dependency.value()
  }
}
