/// Work that waits on a stage and takes its events in the stage's hold of
/// the ``EngineLock`` (see ``StageObserver/sink(_:passesData:)``): a
/// ``PipelineStage`` passing them to its own subscribers, or a job
/// passing them to its tasks.
protocol StageEventSink: Sendable {
  /// Takes `event` with the engine lock held; what must run without it
  /// (callbacks, a partial decode) goes into `deliveries`.
  func receive(_ event: StageEvent, holdingEngineLock deliveries: inout [@Sendable () -> Void])
}
