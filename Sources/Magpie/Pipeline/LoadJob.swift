/// The work shared by every task that asked for the same image the same
/// way: one pipeline run, many subscribers, each with its own callbacks.
final class LoadJob: Sendable {
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
    var subscribers: [Int: Subscriber] = [:]
    var work: Task<Void, Never>?
    var isFinished = false
    var progressiveScanner = ProgressiveJPEGScanner()
    var partialScansShown = 0
    var partialDecodeRunning = false
    /// Moves what the job waits for now (the shared decode stage, or a
    /// processing slot) to a new priority.
    var upstream: (@Sendable (DownloadPriority) -> Void)?
  }

  /// What the job makes.
  let request: ImageRequest
  /// The job table's key.
  let key: String
  private let state = Lock(State())

  init(request: ImageRequest, key: String) {
    self.request = request
    self.key = key
  }

  /// Adds a subscriber; returns false when the job already finished (the
  /// caller then starts a new one).
  func add(_ subscriber: Subscriber) -> Bool {
    state.withLock { state in
      guard !state.isFinished else { return false }
      state.subscribers[subscriber.task.id] = subscriber
      return true
    }
  }

  /// Removes a subscriber; returns it and whether none is left.
  func remove(taskID: Int) -> (Subscriber?, isEmpty: Bool) {
    state.withLock { state in
      let removed = state.subscribers.removeValue(forKey: taskID)
      return (removed, state.subscribers.isEmpty && !state.isFinished)
    }
  }

  /// Records the running work so it can be cancelled.
  func setWork(_ work: Task<Void, Never>) {
    state.withLock { $0.work = work }
  }

  /// The highest priority among the subscribers.
  var priority: DownloadPriority {
    state.withLock { state in state.subscribers.values.map(\.task.priority).max() ?? request.effectivePriority }
  }

  /// Records how to move what the job waits for now to a new priority
  /// (`nil` once it waits for nothing), and applies the job's priority
  /// now, in case it changed since the wait started (the same priority
  /// moves nothing).
  func setUpstream(_ upstream: (@Sendable (DownloadPriority) -> Void)?) {
    state.withLock { $0.upstream = upstream }
    if let upstream { upstream(priority) }
  }

  /// Runs `work` on `limiter` at the job's priority; while it waits for a
  /// slot, a change of the job's priority moves it in that queue.
  func run<T: Sendable>(
    on limiter: WorkLimiter, _ work: @escaping @Sendable () throws(MagpieError) -> T
  ) async throws(MagpieError) -> T {
    defer { setUpstream(nil) }
    return try await limiter.run(
      priority: priority, queued: { ticket in self.setUpstream { limiter.setPriority($0, for: ticket) } }, work)
  }

  /// Moves what the job waits for to the job's priority now.
  func reprioritize() {
    let priority = self.priority
    state.withLock { $0.upstream }?(priority)
  }

  /// Stops the work (no subscriber is left).
  func cancelWork() {
    let work = state.withLock { state -> Task<Void, Never>? in
      state.isFinished = true
      return state.work
    }
    work?.cancel()
  }

  /// Marks the job finished and hands back the subscribers to deliver to.
  func finish() -> [Subscriber] {
    state.withLock { state in
      state.isFinished = true
      defer { state.subscribers = [:] }
      return Array(state.subscribers.values)
    }
  }

  /// Passes download progress to every subscriber.
  func reportProgress(received: Int64, expected: Int64?) {
    let progress = ImageTask.Progress(completed: received, total: expected)
    let subscribers = state.withLock { Array($0.subscribers.values) }
    for subscriber in subscribers where subscriber.task.setProgress(progress) {
      subscriber.progress?(progress)
    }
  }

  /// Whether a partial decode should start for `data`: a progressive JPEG
  /// with a scan more than last shown complete, someone listening, and no
  /// partial decode already running. Marks one as running when it says yes.
  func shouldDecodePartial(_ data: UnsafeRawBufferPointer) -> Bool {
    state.withLock { state in
      guard !state.isFinished, !state.partialDecodeRunning,
        state.subscribers.values.contains(where: { $0.partialImage != nil || $0.task.wantsPartialImages })
      else { return false }
      state.progressiveScanner.update(with: data)
      guard state.progressiveScanner.isProgressive == true,
        state.progressiveScanner.completeScans > state.partialScansShown
      else { return false }
      state.partialScansShown = state.progressiveScanner.completeScans
      state.partialDecodeRunning = true
      return true
    }
  }

  /// Delivers a partial image (unless the job finished meanwhile) and
  /// allows the next partial decode.
  func deliverPartial(_ image: Image?) {
    let subscribers = state.withLock { state -> [Subscriber] in
      state.partialDecodeRunning = false
      guard !state.isFinished, image != nil else { return [] }
      return Array(state.subscribers.values)
    }
    guard let image else { return }
    for subscriber in subscribers where subscriber.task.deliverPartial(image) {
      subscriber.partialImage?(image)
    }
  }
}
