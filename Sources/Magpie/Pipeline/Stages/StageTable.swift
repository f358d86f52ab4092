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
  func subscribe(
    key: String, priority: ImageRequest.Priority, observer: (@Sendable (StageEvent) -> Void)? = nil,
    work: @escaping @Sendable (PipelineStage<Value>) async throws(MagpieError) -> Value
  ) -> StageSubscription<Value> {
    let (subscription, watchers) = state.withLock { state in
      var subscription = state.stages[key]?.subscribe(priority: priority, observer: observer)
      if subscription == nil {
        let stage = PipelineStage<Value>(key: key, priority: priority)
        subscription = stage.subscribe(priority: priority, observer: observer)
        state.stages[key] = stage
        stage.start(work) { [weak self, weak stage] in
          guard let self, let stage else { return }
          self.remove(stage)
        }
      }
      return (subscription!, Self.satisfiedWatchers(&state))
    }
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
