/// The running stages of one kind (downloads, fetches, decodes), by key:
/// a request for work already running joins it, anything else starts a
/// stage. Keys are values (``TransferKey``, ``FetchKey``, ``DecodeKey``),
/// built once per request.
final class StageTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private struct State {
    var stages: [Key: PipelineStage<Value>] = [:]
  }

  private let state = EngineGuarded(State())
  /// The kind of stage, as ``EngineEvent``s name it.
  private let kind: EngineEvent.Stage
  private let engineObserver: (@Sendable (EngineEvent) -> Void)?

  /// A table of `kind` stages, reporting to `observer`.
  init(kind: EngineEvent.Stage, observer: (@Sendable (EngineEvent) -> Void)? = nil) {
    self.kind = kind
    engineObserver = observer
  }

  /// Joins the stage running for `key`, or starts one running `work` on a
  /// task of its own.
  func subscribe(
    key: Key, priority: ImageRequest.Priority, observer: StageObserver? = nil,
    wantsData: Bool = false, completion: PipelineStage<Value>.Completion? = nil,
    work: @escaping @Sendable (PipelineStage<Value>) async throws(MagpieError) -> Value
  ) -> StageSubscription<Value> {
    subscribe(
      key: key, priority: priority, observer: observer, wantsData: wantsData, completion: completion,
      starting: { [engineObserver, kind] stage in
        stage.start(work)
        engineObserver?(.taskMade(.stage(kind)))
      })
  }

  /// Joins the stage running for `key`, or makes one and has `starting`
  /// start its work (see ``PipelineStage/start(driving:)``), on this
  /// thread: what must happen in the order of the calls (a download
  /// joining the line for a slot) happens here.
  func subscribe(
    key: Key, priority: ImageRequest.Priority, observer: StageObserver?,
    wantsData: Bool, completion: PipelineStage<Value>.Completion?,
    starting: (PipelineStage<Value>) -> Void
  ) -> StageSubscription<Value> {
    // The lookup and the join are one hold of the engine lock: nobody
    // closes the stage between them.
    let (joined, created, total) = EngineLock.withLock { deferred in
      state.withHeldLock { state -> (StageSubscription<Value>, PipelineStage<Value>?, Int) in
        if let existing = state.stages[key],
          let joined = existing.joinHoldingLock(
            priority: priority, observer: observer, wantsData: wantsData, completion: completion,
            deferred: &deferred)
        {
          return (joined, nil, engineObserver == nil ? 0 : Self.subscriberCount(state))
        }
        let stage = PipelineStage<Value>(priority: priority)
        // A new stage is open: the join cannot fail.
        let joined = stage.joinHoldingLock(
          priority: priority, observer: observer, wantsData: wantsData, completion: completion,
          deferred: &deferred)!
        state.stages[key] = stage
        stage.onCloseHoldingLock { [weak self, weak stage] in
          guard let self, let stage else { return }
          self.remove(stage, forKey: key)
        }
        return (joined, stage, engineObserver == nil ? 0 : Self.subscriberCount(state))
      }
    }
    // Outside the lock: work that ends at once drops its stage from here.
    if let created { starting(created) }
    engineObserver?(.subscribed(kind, subscribers: total))
    return joined
  }

  /// How many stages are running.
  var count: Int { state.withLock { $0.stages.count } }

  private func remove(_ stage: PipelineStage<Value>, forKey key: Key) {
    state.withLock { state in
      if state.stages[key] === stage { state.stages[key] = nil }
    }
  }

  private static func subscriberCount(_ state: State) -> Int {
    state.stages.values.reduce(0) { $0 + $1.subscriberCountHoldingLock }
  }

}
