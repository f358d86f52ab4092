/// The decode stage's work driven by callbacks instead of a task of its
/// own: it subscribes to its fetch with a completion, and when the bytes
/// come (on whatever thread ends the fetch: the libcurl thread, as a
/// rule) it queues the decode on the decode limiter, whose thread
/// completes the stage. The job's task, waiting on the stage, is the only
/// one woken.
final class QueuedDecode: Sendable {
  private let plan: DecodePlan
  private let limiter: WorkLimiter
  private let stage: PipelineStage<DecodedImage>
  private let step = StageStep()

  init(plan: DecodePlan, limiter: WorkLimiter, stage: PipelineStage<DecodedImage>) {
    self.plan = plan
    self.limiter = limiter
    self.stage = stage
  }

  /// Subscribes to the fetch `subscribe` makes (given the stage's priority
  /// and what to do with its outcome); returns how to stop the decode.
  func begin(
    fetch subscribe: (
      _ priority: ImageRequest.Priority,
      _ completion: @escaping @Sendable (Result<FetchedData, MagpieError>) -> Void
    ) -> StageSubscription<FetchedData>
  ) -> @Sendable () -> Void {
    let stage = stage
    let priority = stage.priority
    // The fetch may end (even before `subscribe` returns) before its stop
    // is kept.
    let token = step.begin()
    let fetch = subscribe(priority) { [self] result in fetched(result, step: token) }
    stage.wait(on: .stage(fetch), startedAt: priority)
    step.keep({ fetch.cancel() }, for: token)
    return { [step] in step.cancel() }
  }

  private func fetched(_ result: Result<FetchedData, MagpieError>, step token: StageStep.Token) {
    step.end(token)
    let fetched: FetchedData
    switch result {
    case .failure(let error): return stage.complete(.failure(error))
    case .success(let value): fetched = value
    }
    let stage = stage
    let plan = plan
    let clock = ContinuousClock()
    let start = clock.now
    let priority = stage.priority
    let step = step
    let decoding = step.begin()
    let ticket = limiter.submit(priority: priority) { () throws(MagpieError) in
      try plan.decode(fetched.data)
    } completion: { result in
      step.end(decoding)
      stage.complete(result.map { DecodedImage(image: $0, fetched: fetched, decodeTime: clock.now - start) })
    }
    let limiter = limiter
    stage.wait(on: .line { limiter.setPriority($0, for: ticket) }, startedAt: priority)
    step.keep({ limiter.withdraw(ticket) }, for: decoding)
  }
}
