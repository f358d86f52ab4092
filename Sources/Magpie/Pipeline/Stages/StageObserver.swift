/// Where a stage's events (progress, partial bytes) go.
enum StageObserver: Sendable {
  /// A closure of the caller's, called once the engine lock is released.
  case call(@Sendable (StageEvent) -> Void)
  /// Work waiting on the stage (the fetch over a download, the decode over
  /// a fetch, the job over a decode), reached in the same hold of the
  /// ``EngineLock``: an event crosses every stage in one acquisition.
  /// Partial bytes pass only when `passesData`.
  case sink(any StageEventSink, passesData: Bool)

  /// Passes `event` on, with the engine lock held: a sink takes it now, a
  /// closure is added to `deliveries`, which run after the lock is
  /// released.
  func pass(_ event: StageEvent, holdingEngineLock deliveries: inout [@Sendable () -> Void]) {
    switch self {
    case .call(let observer):
      deliveries.append { observer(event) }
    case .sink(let sink, let passesData):
      if case .data = event, !passesData { return }
      sink.receive(event, holdingEngineLock: &deliveries)
    }
  }
}
