import Foundation

/// The work shared by every task that asked for the same image the same
/// way: one pipeline run, many subscribers, each with its own callbacks.
/// Who is subscribed, at what priority, and who gets the outcome follow
/// the one set of rules in ``SharedWork``, applied under the one
/// ``EngineLock``. The job takes the events of the stage it waits on in
/// that stage's hold of the lock (it is a ``StageEventSink``).
final class LoadJob: StageEventSink {
  /// One task's callbacks.
  struct Subscriber: Sendable {
    var task: ImageTask
    var progress: (@Sendable (ImageTask.Progress) -> Void)?
    var partialImage: (@Sendable (Image) -> Void)?
    /// `nil` for ``ImageManager/image(for:progress:partialImage:)``, which
    /// waits on the task instead.
    var completion: (@Sendable (Result<ImageResult, MagpieError>) -> Void)?
  }

  private struct State {
    var machine: SharedWork<ImageResult, Subscriber>
    var work: Task<Void, Never>?
    var progressiveScanner = ProgressiveJPEGScanner()
    var partialScansShown = 0
    var partialDecodeRunning = false
    /// Whether the bytes received are all the server said it would send:
    /// the final decode follows, so a preview of them would come too late.
    var bodyComplete = false
    /// Whether the embedded thumbnail was looked for to the end (shown, or
    /// known to be absent).
    var thumbnailSearched = false
    /// What the job waits in now (the shared decode stage, or a
    /// processing slot), which follows its priority.
    var dependency: StageDependency?
  }

  /// What the job makes.
  let request: ImageRequest
  /// Its keys, built once when it started; ``LoadKeys/job`` is the job
  /// table's.
  let keys: LoadKeys
  private let state: EngineGuarded<State>
  /// Starts a partial decode of the bytes so far (the job has checked a
  /// new scan is in); run once the engine lock is released.
  private let previews: @Sendable (Data, PreviewSource, LoadJob) -> Void

  init(
    request: ImageRequest, keys: LoadKeys, previews: @escaping @Sendable (Data, PreviewSource, LoadJob) -> Void
  ) {
    self.request = request
    self.keys = keys
    self.previews = previews
    state = EngineGuarded(State(machine: SharedWork(priority: request.priority)))
  }

  /// Adds a subscriber at `priority`, with the engine lock held (the job
  /// table found the job in the same hold); returns its id, or `nil` when
  /// the job already finished or was abandoned (the caller then starts a
  /// new one). A higher priority moves the job's dependency in the same
  /// hold; a line's move goes into `deferred`.
  func joinHoldingLock(
    _ subscriber: Subscriber, priority: ImageRequest.Priority, deferred: inout [@Sendable () -> Void]
  ) -> Int? {
    let joined = state.withHeldLock { state in
      state.machine.join(subscriber, priority: priority, waiting: true).map { ($0, state.dependency) }
    }
    guard let ((id, raised), dependency) = joined else { return nil }
    if let raised { dependency?.move(to: raised, holdingEngineLock: &deferred) }
    return id
  }

  /// Removes subscriber `id`; returns it and whether the work must stop
  /// (nobody is left). A lower priority moves the job's dependency.
  func leave(_ id: Int) -> (subscriber: Subscriber?, cancelsWork: Bool) {
    let action = EngineLock.withLock { deferred in
      let (action, dependency) = state.withHeldLock { ($0.machine.leave(id), $0.dependency) }
      if let lowered = action.newPriority { dependency?.move(to: lowered, holdingEngineLock: &deferred) }
      return action
    }
    return (action.subscriber, action.cancelsWork)
  }

  /// Subscriber `id` now wants `priority`; a change of the job's priority
  /// moves what it waits in, and on through the stages under it, in one
  /// hold of the engine lock.
  func setPriority(_ priority: ImageRequest.Priority, of id: Int) {
    EngineLock.withLock { deferred in
      let (changed, dependency) = state.withHeldLock { ($0.machine.setPriority(priority, of: id), $0.dependency) }
      if let changed { dependency?.move(to: changed, holdingEngineLock: &deferred) }
    }
  }

  /// Records the running work so it can be cancelled.
  func setWork(_ work: Task<Void, Never>) {
    state.withLock { $0.work = work }
  }

  /// The highest priority among the subscribers.
  var priority: ImageRequest.Priority { state.withLock { $0.machine.priority } }

  /// The job now waits in `dependency` (`nil`: in nothing), which is
  /// moved to the job's priority now, in case it changed since the wait
  /// started (the same priority moves nothing).
  func wait(on dependency: StageDependency?) {
    EngineLock.withLock { deferred in
      let priority = state.withHeldLock { state in
        state.dependency = dependency
        return state.machine.priority
      }
      dependency?.move(to: priority, holdingEngineLock: &deferred)
    }
  }

  /// Runs `work` on `limiter` at the job's priority; while it waits for a
  /// slot, a change of the job's priority moves it in that queue.
  func run<T: Sendable>(
    on limiter: WorkLimiter, _ work: @escaping @Sendable () throws(MagpieError) -> T
  ) async throws(MagpieError) -> T {
    defer { wait(on: nil) }
    return try await limiter.run(
      priority: priority, queued: { ticket in self.wait(on: .line { limiter.setPriority($0, for: ticket) }) }, work)
  }

  /// Stops the work (its last subscriber left).
  func cancelWork() {
    state.withLock { $0.work }?.cancel()
  }

  /// Closes the job with `result` and hands back the subscribers to
  /// deliver it to.
  func finish(_ result: Result<ImageResult, MagpieError>) -> [Subscriber] {
    state.withLock { $0.machine.finish(result) }
  }

  /// Passes the progress of the fetch to every subscriber, and starts a
  /// partial decode when the bytes so far hold a new scan.
  func receive(_ event: StageEvent, holdingEngineLock deliveries: inout [@Sendable () -> Void]) {
    switch event {
    case .progress(let received, let expected):
      let progress = ImageTask.Progress(completed: received, total: expected)
      let subscribers = state.withHeldLock { state in
        state.bodyComplete = expected.map { received >= $0 } ?? false
        return state.machine.subscribers
      }
      deliveries.append {
        for subscriber in subscribers where subscriber.task.setProgress(progress) {
          subscriber.progress?(progress)
        }
      }
    case .data(let data):
      guard let source = data.withUnsafeBytes({ nextPreview($0) }) else { return }
      if case .embeddedThumbnail(let range, _) = source {
        // Offsets count from the bytes' start; a `Data` slice's indices may not.
        let bytes = data.subdata(in: (data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound))
        deliveries.append { [previews] in previews(bytes, source, self) }
      } else {
        deliveries.append { [previews] in previews(data, source, self) }
      }
    }
  }

  /// The preview to decode from `data`, if one should start: the embedded
  /// thumbnail once it has arrived (``ImageLoadingOptions/embeddedThumbnailPreview``),
  /// or a progressive JPEG's scans with one more complete than last shown
  /// (``ImageLoadingOptions/progressiveLoad``); only while someone listens,
  /// no partial decode runs and bytes are still to come. Marks one as
  /// running when it gives one.
  private func nextPreview(_ data: UnsafeRawBufferPointer) -> PreviewSource? {
    state.withHeldLock { state in
      guard !state.partialDecodeRunning, !state.bodyComplete,
        state.machine.subscribers.contains(where: { $0.partialImage != nil || $0.task.wantsPartialImages })
      else { return nil }
      if request.options.contains(.embeddedThumbnailPreview), !state.thumbnailSearched {
        switch EXIFThumbnailLocator.locate(in: data) {
        case .needsMoreData: return nil
        case .absent: state.thumbnailSearched = true
        case .found(let range, let orientation):
          state.thumbnailSearched = true
          state.partialDecodeRunning = true
          return .embeddedThumbnail(range, orientation)
        }
      }
      guard request.options.contains(.progressiveLoad) else { return nil }
      state.progressiveScanner.update(with: data)
      guard state.progressiveScanner.isProgressive == true,
        state.progressiveScanner.completeScans > state.partialScansShown
      else { return nil }
      state.partialScansShown = state.progressiveScanner.completeScans
      state.partialDecodeRunning = true
      return .scans
    }
  }

  /// Delivers a partial image (unless the job finished meanwhile) and
  /// allows the next partial decode.
  func deliverPartial(_ image: Image?) {
    let subscribers = state.withLock { state -> [Subscriber] in
      state.partialDecodeRunning = false
      return image == nil ? [] : state.machine.subscribers
    }
    guard let image else { return }
    for subscriber in subscribers where subscriber.task.deliverPartial(image) {
      subscriber.partialImage?(image)
    }
  }
}
