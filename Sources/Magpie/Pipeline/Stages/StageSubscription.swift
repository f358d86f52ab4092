/// One subscriber's place in a ``PipelineStage``: wait for the outcome
/// (cancelling the waiting task leaves the stage), or change the priority
/// this subscriber wants.
struct StageSubscription<Value: Sendable>: PriorityLink {
  let stage: PipelineStage<Value>
  let id: Int

  /// The stage's outcome. Cancelling the calling task leaves the stage
  /// (stopping its work if nobody else waits) and throws
  /// ``MagpieError/Code/cancelled``.
  func value() async throws(MagpieError) -> Value {
    let result = await withTaskCancellationHandler {
      await stage.wait(id)
    } onCancel: {
      stage.leave(id)
    }
    return try result.get()
  }

  /// Asks for the stage's work at `priority` on this subscriber's behalf.
  func setPriority(_ priority: ImageRequest.Priority) {
    stage.setPriority(priority, of: id)
  }

  func setPriority(_ priority: ImageRequest.Priority, holdingEngineLock deferred: inout [@Sendable () -> Void]) {
    stage.setPriority(priority, of: id, holdingEngineLock: &deferred)
  }

  /// Leaves the stage now (a subscriber with a completion gets the
  /// cancellation at once); the stage's work stops when nobody is left.
  func cancel() {
    stage.leave(id)
  }
}
