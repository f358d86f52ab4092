import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The download stage's work: its attempts, each with a place in the line,
/// and the one retry rule between them. Over a ``QueueingDataLoader`` an
/// attempt is driven by the loader's callbacks, not a task: the loader's
/// thread starts it when a slot frees and reports its end, and the
/// stage's outcome goes to its subscribers from there. Any other loader
/// (URLSession, a user's own), or a subscriber that wants the bytes so
/// far, runs each attempt on a task of its own that waits for the slot.
/// A retry's wait runs on a task.
final class QueuedDownload: Sendable {
  private struct State {
    var attempts = 0
    var firstQueueWait: Duration?
    /// What this attempt resumes, if it asked for the rest of a body.
    var resuming: ResumableData?
    /// Whether the loader's challenge handler was asked for a login.
    var askedForLogin = false
  }

  private let request: URLRequest
  /// The loader that starts queued transfers itself, when it does and no
  /// subscriber wants partial bytes.
  private let queueingLoader: (any QueueingDataLoader)?
  private let downloader: ImageDownloader
  private let stage: PipelineStage<ImageDownloader.Response>
  private let begun = ContinuousClock.now
  private let state = Lock(State())
  private let step = StageStep()

  init(
    _ request: URLRequest, queueingLoader: (any QueueingDataLoader)?, downloader: ImageDownloader,
    stage: PipelineStage<ImageDownloader.Response>
  ) {
    self.request = request
    self.queueingLoader = queueingLoader
    self.downloader = downloader
    self.stage = stage
  }

  /// Starts the first attempt (joining the line now, on this thread, in
  /// the order of the calls); returns how to stop the download.
  func begin() -> @Sendable () -> Void {
    attempt()
    return { [step] in step.cancel() }
  }

  private func attempt() {
    let slot = downloader.slot(for: stage)
    let stage = stage
    let request = resumed(self.request)
    // The attempt may end, on the loader's thread, before its stop is kept.
    let token = step.begin()
    if let loader = queueingLoader {
      let cancel = loader.enqueueLoad(
        of: request, in: slot,
        progress: { received, expected in stage.send(.progress(received: received, expected: expected)) },
        completion: { [self] result in finished(result, slot: slot, step: token) })
      return step.keep(cancel, for: token)
    }
    slot.enqueue()
    let task = Task { [self, downloader, request] in
      finished(await downloader.transfer(request, slot: slot, stage: stage), slot: slot, step: token)
    }
    step.keep({ task.cancel() }, for: token)
    downloader.configuration.engineObserver?(.taskMade(.stage(.download)))
  }

  private func finished(
    _ result: Result<(Data, HTTPURLResponse), MagpieError>, slot: TransferQueue.Slot, step token: StageStep.Token
  ) {
    step.end(token)
    let (attempts, queueWait) = state.withLock { state in
      state.attempts += 1
      if state.firstQueueWait == nil { state.firstQueueWait = slot.queueWait }
      return (state.attempts, state.firstQueueWait ?? .zero)
    }
    let shown = request.url?.redactedDescription ?? "?"
    switch resume(result) {
    case .success(let (data, response)):
      MagpieLogging.log(
        .debug, "loader", "downloaded \(shown): \(response.statusCode), \(data.count) bytes, \(attempts) attempt(s)")
      stage.complete(
        .success(downloader.finishedResponse(data, response, attempts: attempts, queueWait: queueWait, begun: begun)))
    case .failure(let error):
      if step.isCancelled { return stage.complete(.failure(MagpieError(.cancelled, "the download was cancelled"))) }
      if answersChallenge(of: error) { return }
      guard let wait = downloader.configuration.retryPolicy.delay(afterAttempt: attempts, error: error) else {
        MagpieLogging.log(.warning, "loader", "downloading \(shown) failed after \(attempts) attempt(s): \(error)")
        return stage.complete(.failure(error))
      }
      MagpieLogging.log(.notice, "loader", "retrying \(shown) in \(wait): \(error)")
      let sleep = downloader.configuration.sleep
      let waiting = step.begin()
      let task = Task { [self] in
        let slept = (try? await sleep(wait)) != nil
        step.end(waiting)
        guard slept else {
          return stage.complete(
            .failure(MagpieError(.cancelled, "the download was cancelled while waiting to retry")))
        }
        attempt()
      }
      step.keep({ task.cancel() }, for: waiting)
    }
  }

  // MARK: Resuming

  /// `request`, asking for the rest of a body an earlier attempt (or an
  /// earlier load of the URL) kept, when the downloader resumes.
  private func resumed(_ request: URLRequest) -> URLRequest {
    guard downloader.configuration.resumesDownloads, let key = request.url?.absoluteString,
      request.value(forHTTPHeaderField: "Range") == nil,
      let kept = downloader.resumables.take(for: key)
    else { return request }
    state.withLock { $0.resuming = kept }
    MagpieLogging.log(.info, "loader", "resuming \(request.url?.redactedDescription ?? "?") at byte \(kept.data.count)")
    var ranged = request
    kept.apply(to: &ranged)
    return ranged
  }

  /// The attempt's outcome with the kept bytes joined to a `206`, and a
  /// failure's partial body kept for the next attempt.
  private func resume(
    _ result: Result<(Data, HTTPURLResponse), MagpieError>
  ) -> Result<(Data, HTTPURLResponse), MagpieError> {
    let resuming = state.withLock { state in
      defer { state.resuming = nil }
      return state.resuming
    }
    switch result {
    case .success(let (data, response)):
      guard let resuming else { return result }
      do throws(MagpieError) {
        return .success(try resuming.resume(data, response: response))
      } catch {
        return .failure(error)
      }
    case .failure(let error):
      if downloader.configuration.resumesDownloads, let key = request.url?.absoluteString,
        let partial = PartialBody.of(error), let kept = ResumableData(partial, continuing: resuming)
      {
        downloader.resumables.store(kept, for: key)
      }
      return result
    }
  }

  // MARK: Challenges

  /// Asks the loader's challenge handler about a 401, once per download,
  /// and tries again with the login it gives; `false` when there is
  /// nothing to ask.
  private func answersChallenge(of error: MagpieError) -> Bool {
    guard let challenge = (error.underlying as? ChallengeFailure)?.challenge,
      let logins = (downloader.configuration.dataLoader as? CurlDataLoader)?.logins,
      state.withLock({ state in
        defer { state.askedForLogin = true }
        return !state.askedForLogin
      })
    else { return false }
    let stage = stage
    MagpieLogging.log(
      .info, "loader", "asking for a login to \(challenge.origin) (\(challenge.schemes.joined(separator: ", ")))")
    let asking = step.begin()
    let task = Task { [self] in
      let answered = await logins.answer(challenge)
      step.end(asking)
      if Task.isCancelled {
        return stage.complete(.failure(MagpieError(.cancelled, "the download was cancelled while asking for a login")))
      }
      if answered { attempt() } else { stage.complete(.failure(error)) }
    }
    step.keep({ task.cancel() }, for: asking)
    return true
  }
}
