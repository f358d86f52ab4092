import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The job table: a task joins the job for its processed result (one per
/// cache key, cache behaviour and transfer), or starts one; the job's run
/// joins the shared decode and fetch stages; its outcome reaches every
/// task still subscribed, and the failed-source memory.
extension ImageManager {
  /// Joins or starts the job for `task`'s request, whose cache key the
  /// memory check built.
  func start(
    _ task: ImageTask, cacheKey: ImageCacheKey, progress: (@Sendable (ImageTask.Progress) -> Void)?,
    partialImage: (@Sendable (Image) -> Void)?,
    completion: (@Sendable (Result<ImageResult, MagpieError>) -> Void)?
  ) {
    let request = task.request
    // Built once: the job, its stages and its store use them.
    let keys = LoadKeys(request, cache: cacheKey, configuration: configuration)
    if request.options.contains(.retryFailed) {
      failedSources.forget(keys.source)
    } else if let failure = failedSources.failure(of: keys.source) {
      var error = failure
      error.reason = "failed before (\(failure.reason)); not tried again without .retryFailed"
      if let result = task.finish(with: .failure(error)) { completion?(result) }
      return
    }
    let subscriber = LoadJob.Subscriber(
      task: task, progress: progress, partialImage: partialImage, completion: completion)
    let key = keys.job
    let priority = task.priority
    // The lookup and the join are one hold of the engine lock.
    let (job, id, isNew) = EngineLock.withLock { deferred in
      jobs.withHeldLock { jobs -> (LoadJob, Int, Bool) in
        if let existing = jobs[key],
          let id = existing.joinHoldingLock(subscriber, priority: priority, deferred: &deferred)
        {
          return (existing, id, false)
        }
        let job = LoadJob(request: request, keys: keys) { [weak self] data, source, job in
          self?.decodePartial(data, source: source, job: job)
        }
        jobs[key] = job
        // A new job is open: the join cannot fail.
        return (job, job.joinHoldingLock(subscriber, priority: priority, deferred: &deferred) ?? 0, true)
      }
    }
    let connected = task.connect(
      onCancel: { [weak self, weak job] in
        guard let self, let job else { return }
        self.unsubscribe(task, id, from: job)
      },
      onPriority: { [weak job] priority in
        // What the job waits in (the shared decode, which passes it on to
        // the fetch and the download, or a processing slot) moves.
        job?.setPriority(priority, of: id)
      })
    // A priority set between joining and connecting is applied now.
    if connected != priority { job.setPriority(connected, of: id) }
    if isNew {
      let work = Task.detached { [self] in
        let result = await run(job)
        finish(job, result)
      }
      job.setWork(work)
      configuration.engineObserver?(.taskMade(.job))
    }
  }

  private func unsubscribe(_ task: ImageTask, _ id: Int, from job: LoadJob) {
    let (subscriber, cancelsWork) = job.leave(id)
    if cancelsWork {
      jobs.withLock { jobs in if jobs[job.keys.job] === job { jobs[job.keys.job] = nil } }
      // Cancelling the job's work leaves the stages it waits in, which
      // stop (and stop the download) when nobody else waits.
      job.cancelWork()
    }
    if let subscriber, let result = subscriber.task.finish(with: .failure(ImageTask.cancellation)) {
      subscriber.completion?(result)
    }
  }

  private func finish(_ job: LoadJob, _ result: Result<ImageResult, MagpieError>) {
    jobs.withLock { jobs in if jobs[job.keys.job] === job { jobs[job.keys.job] = nil } }
    failedSources.record(result, of: job.keys.source)
    for subscriber in job.finish(result) {
      var delivered = result
      if case .success(var value) = result {
        value.request = subscriber.task.request
        delivered = .success(value)
      }
      // A task cancelled just now gets its cancellation here.
      if let outcome = subscriber.task.finish(with: delivered) { subscriber.completion?(outcome) }
    }
  }
}
