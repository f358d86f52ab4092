import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The download stage's work over a ``QueueingDataLoader``, driven by the
/// loader's callbacks instead of a task: each attempt joins the line, the
/// loader's thread starts it when a slot frees and reports its end, and
/// the stage's outcome goes to its subscribers from there. Only a retry's
/// wait runs on a task.
final class QueuedDownload: Sendable {
  private struct State {
    var attempts = 0
    var firstQueueWait: Duration?
  }

  private let request: URLRequest
  private let loader: any QueueingDataLoader
  private let downloader: ImageDownloader
  private let stage: PipelineStage<ImageDownloader.Response>
  private let begun = ContinuousClock.now
  private let state = Lock(State())
  private let step = StageStep()

  init(
    _ request: URLRequest, loader: any QueueingDataLoader, downloader: ImageDownloader,
    stage: PipelineStage<ImageDownloader.Response>
  ) {
    self.request = request
    self.loader = loader
    self.downloader = downloader
    self.stage = stage
  }

  /// Starts the first attempt; returns how to stop the download.
  func begin() -> @Sendable () -> Void {
    attempt()
    return { [step] in step.cancel() }
  }

  private func attempt() {
    let slot = downloader.slot(for: stage)
    let stage = stage
    let cancel = loader.enqueueLoad(
      of: request, in: slot,
      progress: { received, expected in stage.send(.progress(received: received, expected: expected)) },
      completion: { [self] result in finished(result, slot: slot) })
    step.keep(cancel)
  }

  private func finished(_ result: Result<(Data, HTTPURLResponse), MagpieError>, slot: TransferQueue.Slot) {
    step.ended()
    let (attempts, queueWait) = state.withLock { state in
      state.attempts += 1
      if state.firstQueueWait == nil { state.firstQueueWait = slot.queueWait }
      return (state.attempts, state.firstQueueWait ?? .zero)
    }
    switch result {
    case .success(let (data, response)):
      stage.complete(
        .success(downloader.finishedResponse(data, response, attempts: attempts, queueWait: queueWait, begun: begun)))
    case .failure(let error):
      if step.isCancelled { return stage.complete(.failure(MagpieError(.cancelled, "the download was cancelled"))) }
      guard let wait = downloader.configuration.retryPolicy.delay(afterAttempt: attempts, error: error) else {
        return stage.complete(.failure(error))
      }
      let sleep = downloader.configuration.sleep
      let task = Task { [self] in
        do {
          try await sleep(wait)
        } catch {
          return stage.complete(
            .failure(MagpieError(.cancelled, "the download was cancelled while waiting to retry")))
        }
        attempt()
      }
      step.keep { task.cancel() }
    }
  }
}
