/// Loads a list of images into the caches ahead of need, at low priority
/// and with its own concurrency limit (SDWebImagePrefetcher, Kingfisher's
/// ImagePrefetcher). Images already cached (memory or disk) are skipped
/// without loading them. To warm only the disk and the other tiers (Nuke's
/// `.diskCache` destination), give the requests
/// ``ImageLoadingOptions/disableMemoryCacheWrites``.
public final class ImagePrefetcher: Sendable {
  /// Where a prefetch stands.
  public struct Progress: Sendable, Equatable {
    /// Requests in all.
    public var total: Int
    /// Loaded into the caches.
    public var finished: Int
    /// Already cached: nothing to do.
    public var skipped: Int
    /// Failed (or cancelled).
    public var failed: Int

    /// Requests done, whatever the outcome.
    public var completed: Int { finished + skipped + failed }
  }

  /// The manager that loads.
  public let manager: ImageManager
  /// Loads running at once.
  public let maximumConcurrentPrefetches: Int
  private let state: Lock<State>

  private struct State {
    var queue: PrefetchQueue
    var onProgress: (@Sendable (Progress) -> Void)?
    var waiters: [CheckedContinuation<Progress, Never>] = []
  }

  /// A prefetcher over `manager`, running at most
  /// `maximumConcurrentPrefetches` loads at once (default 4).
  public init(manager: ImageManager, maximumConcurrentPrefetches: Int = 4) {
    self.manager = manager
    self.maximumConcurrentPrefetches = max(1, maximumConcurrentPrefetches)
    state = Lock(State(queue: PrefetchQueue(limit: maximumConcurrentPrefetches)))
  }

  /// Prefetches `requests` (added to any prefetch in progress): those at
  /// the default `.normal` priority go at `.low`, others keep theirs;
  /// `progress` is called after each one completes.
  public func start(_ requests: [ImageRequest], progress: (@Sendable (Progress) -> Void)? = nil) {
    let lowered = requests.map { request -> ImageRequest in
      var request = request
      if request.priority == .normal { request.priority = .low }
      return request
    }
    let keys = lowered.map(key(of:))
    state.withLock { state in
      state.queue.add(lowered, keys: keys)
      if let progress { state.onProgress = progress }
    }
    pump()
  }

  /// Prefetches `requests` and returns the counts when all are done (or
  /// stopped). While paused it waits.
  public func prefetch(
    _ requests: [ImageRequest], progress: (@Sendable (Progress) -> Void)? = nil
  ) async -> Progress {
    start(requests, progress: progress)
    return await withCheckedContinuation { continuation in
      let done = state.withLock { state -> Progress? in
        if state.queue.isDone { return state.queue.progress }
        state.waiters.append(continuation)
        return nil
      }
      if let done { continuation.resume(returning: done) }
    }
  }

  /// Stops the prefetches of `requests` (matched by their cache key):
  /// waiting ones are dropped, running ones cancelled (a load another
  /// caller shares goes on for that caller); each counts as failed, and
  /// `progress` is called once. Nuke's `stopPrefetching(with:)`.
  public func stop(_ requests: [ImageRequest]) {
    stop(keys: Set(requests.map(key(of:))))
  }

  /// Cancels everything pending and running; cancelled requests count as
  /// failed.
  public func cancelAll() {
    stop(keys: nil)
  }

  /// Stops starting loads until ``resume()``; running ones go on (Nuke's
  /// `isPaused`). For a view that scrolls fast: pause while it flings,
  /// resume when it settles.
  public func pause() {
    state.withLock { $0.queue.setPaused(true) }
  }

  /// Starts loads again after ``pause()``.
  public func resume() {
    state.withLock { $0.queue.setPaused(false) }
    pump()
  }

  /// Whether starting loads is paused.
  public var isPaused: Bool { state.withLock { $0.queue.isPaused } }

  /// Counts so far.
  public var progress: Progress { state.withLock { $0.queue.progress } }

  /// Which requests finished, were skipped and failed (Kingfisher's
  /// `completedResources`, `skippedResources`, `failedResources`).
  public var report: Report { state.withLock { $0.queue.report } }

  private func key(of request: ImageRequest) -> ImageCacheKey {
    manager.cacheKey(for: manager.prepared(request))
  }

  private func stop(keys: Set<ImageCacheKey>?) {
    let (tasks, progress) = state.withLock { ($0.queue.stop(keys: keys), $0.queue.progress) }
    for task in tasks { task.cancel() }
    record(progress)
  }

  private func pump() {
    while let entry = state.withLock({ $0.queue.next() }) {
      let request = entry.request
      if !request.options.contains(.forceRefresh), manager.configuration.cache.cachedType(forKey: entry.key) != .none {
        record(state.withLock { $0.queue.complete(entry.id, .skipped) })
        continue
      }
      let id = entry.id
      let task = manager.loadImage(with: request, callbackQueue: .immediate) { [weak self] result in
        self?.finished(id, result)
      }
      // The load may have ended already, or been stopped meanwhile.
      if !state.withLock({ $0.queue.attach(task, to: id) }) { task.cancel() }
    }
    record(nil)
  }

  private func finished(_ id: Int, _ result: Result<ImageResult, MagpieError>) {
    let outcome: PrefetchQueue.Outcome
    if case .success = result { outcome = .finished } else { outcome = .failed }
    record(state.withLock { $0.queue.complete(id, outcome) })
    pump()
  }

  /// Reports `progress` (when something completed) and resumes the
  /// waiters once everything has.
  private func record(_ progress: Progress?) {
    let (handler, waiters, done) = state.withLock {
      state -> ((@Sendable (Progress) -> Void)?, [CheckedContinuation<Progress, Never>], Progress) in
      guard state.queue.isDone else { return (state.onProgress, [], state.queue.progress) }
      defer { state.waiters = [] }
      return (state.onProgress, state.waiters, state.queue.progress)
    }
    if let progress { handler?(progress) }
    for waiter in waiters { waiter.resume(returning: done) }
  }
}
