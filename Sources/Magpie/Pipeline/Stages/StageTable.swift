/// The running stages of one kind (fetches, decodes), by key: a request
/// for work already running joins it, anything else starts a stage.
final class StageTable<Value: Sendable>: Sendable {
  private struct State {
    var stages: [String: PipelineStage<Value>] = [:]
    /// Callers of ``waitUntilSubscribed(_:)`` and the count each waits for.
    var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Lock(State())

  /// Joins the stage running for `key`, or starts one running `work`.
  /// Joins the stage running for `key`, or starts one running `work` on a
  /// task of its own.
  func subscribe(
    key: String, priority: ImageRequest.Priority, observer: (@Sendable (StageEvent) -> Void)? = nil,
    wantsData: Bool = false, completion: PipelineStage<Value>.Completion? = nil,
    work: @escaping @Sendable (PipelineStage<Value>) async throws(MagpieError) -> Value
  ) -> StageSubscription<Value> {
    subscribe(
      key: key, priority: priority, observer: observer, wantsData: wantsData, completion: completion,
      starting: { $0.start(work) })
  }

  /// Joins the stage running for `key`, or makes one and has `starting`
  /// start its work (see ``PipelineStage/start(driving:)``), on this
  /// thread: what must happen in the order of the calls (a download
  /// joining the line for a slot) happens here.
  func subscribe(
    key: String, priority: ImageRequest.Priority, observer: (@Sendable (StageEvent) -> Void)?,
    wantsData: Bool, completion: PipelineStage<Value>.Completion?,
    starting: (PipelineStage<Value>) -> Void
  ) -> StageSubscription<Value> {
    let (subscription, created, watchers) = state.withLock { state in
      var subscription = state.stages[key]?.subscribe(
        priority: priority, observer: observer, wantsData: wantsData, completion: completion)
      var created: PipelineStage<Value>?
      if subscription == nil {
        let stage = PipelineStage<Value>(key: key, priority: priority)
        subscription = stage.subscribe(
          priority: priority, observer: observer, wantsData: wantsData, completion: completion)
        state.stages[key] = stage
        stage.onClose { [weak self, weak stage] in
          guard let self, let stage else { return }
          self.remove(stage)
        }
        created = stage
      }
      return (subscription!, created, Self.satisfiedWatchers(&state))
    }
    // Outside the lock: work that ends at once drops its stage from here.
    if let created { starting(created) }
    for watcher in watchers { watcher.resume() }
    return subscription
  }

  /// How many stages are running.
  var count: Int { state.withLock { $0.stages.count } }

  /// Returns once the running stages have at least `count` subscribers in
  /// all: lets a test act when every request has joined, without sleeping.
  func waitUntilSubscribed(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if Self.subscriberCount(state) >= count { return true }
        state.watchers.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  private func remove(_ stage: PipelineStage<Value>) {
    state.withLock { state in
      if state.stages[stage.key] === stage { state.stages[stage.key] = nil }
    }
  }

  private static func subscriberCount(_ state: State) -> Int {
    state.stages.values.reduce(0) { $0 + $1.subscriberCount }
  }

  private static func satisfiedWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
    guard !state.watchers.isEmpty else { return [] }
    let total = subscriberCount(state)
    defer { state.watchers.removeAll { $0.count <= total } }
    return state.watchers.filter { $0.count <= total }.map(\.continuation)
  }
}
