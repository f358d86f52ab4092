/// The running stages of one kind (downloads, fetches, decodes), by key:
/// a request for work already running joins it, anything else starts a
/// stage. Keys are values (``TransferKey``, ``FetchKey``, ``DecodeKey``),
/// built once per request.
final class StageTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private struct State {
    var stages: [Key: PipelineStage<Value>] = [:]
  }

  private let state = Lock(State())
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
    key: Key, priority: ImageRequest.Priority, observer: (@Sendable (StageEvent) -> Void)? = nil,
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
    key: Key, priority: ImageRequest.Priority, observer: (@Sendable (StageEvent) -> Void)?,
    wantsData: Bool, completion: PipelineStage<Value>.Completion?,
    starting: (PipelineStage<Value>) -> Void
  ) -> StageSubscription<Value> {
    let (subscription, created, total) = state.withLock { state in
      var subscription = state.stages[key]?.subscribe(
        priority: priority, observer: observer, wantsData: wantsData, completion: completion)
      var created: PipelineStage<Value>?
      if subscription == nil {
        let stage = PipelineStage<Value>(priority: priority)
        subscription = stage.subscribe(
          priority: priority, observer: observer, wantsData: wantsData, completion: completion)
        state.stages[key] = stage
        stage.onClose { [weak self, weak stage] in
          guard let self, let stage else { return }
          self.remove(stage, forKey: key)
        }
        created = stage
      }
      return (subscription!, created, engineObserver == nil ? 0 : Self.subscriberCount(state))
    }
    // Outside the lock: work that ends at once drops its stage from here.
    if let created { starting(created) }
    engineObserver?(.subscribed(kind, subscribers: total))
    return subscription
  }

  /// How many stages are running.
  var count: Int { state.withLock { $0.stages.count } }

  private func remove(_ stage: PipelineStage<Value>, forKey key: Key) {
    state.withLock { state in
      if state.stages[key] === stage { state.stages[key] = nil }
    }
  }

  private static func subscriberCount(_ state: State) -> Int {
    state.stages.values.reduce(0) { $0 + $1.subscriberCount }
  }

}
