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

  private struct State {
    var pending: [ImageRequest] = []
    /// Index of the next pending request (a queue without O(n) removals).
    var pendingHead = 0
    var running: [Int: ImageTask] = [:]
    var progress = Progress(total: 0, finished: 0, skipped: 0, failed: 0)
    var onProgress: (@Sendable (Progress) -> Void)?
    var waiters: [CheckedContinuation<Progress, Never>] = []
    var starting: Set<Int> = []
    var nextID = 0
    /// Bumped by cancelAll, so a load started just before it is cancelled too.
    var generation = 0
  }

  /// The manager that loads.
  public let manager: ImageManager
  /// Loads running at once.
  public let maximumConcurrentPrefetches: Int
  private let state = Lock(State())

  /// A prefetcher over `manager`, running at most
  /// `maximumConcurrentPrefetches` loads at once (default 4).
  public init(manager: ImageManager, maximumConcurrentPrefetches: Int = 4) {
    self.manager = manager
    self.maximumConcurrentPrefetches = max(1, maximumConcurrentPrefetches)
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
    state.withLock { state in
      state.pending += lowered
      state.progress.total += lowered.count
      if let progress { state.onProgress = progress }
    }
    pump()
  }

  /// Prefetches `requests` and returns the counts when all are done (or
  /// the prefetch is cancelled).
  public func prefetch(
    _ requests: [ImageRequest], progress: (@Sendable (Progress) -> Void)? = nil
  ) async -> Progress {
    start(requests, progress: progress)
    return await withCheckedContinuation { continuation in
      let done = state.withLock { state -> Progress? in
        if state.progress.completed == state.progress.total && state.running.isEmpty && state.starting.isEmpty {
          return state.progress
        }
        state.waiters.append(continuation)
        return nil
      }
      if let done { continuation.resume(returning: done) }
    }
  }

  /// Cancels everything pending and running; cancelled requests count as
  /// failed.
  public func cancelAll() {
    let (tasks, finished) = state.withLock { state -> ([ImageTask], Bool) in
      state.progress.failed += state.pending.count - state.pendingHead
      state.pending = []
      state.pendingHead = 0
      state.generation += 1
      let tasks = Array(state.running.values)
      return (tasks, state.running.isEmpty && state.starting.isEmpty)
    }
    for task in tasks { task.cancel() }
    if finished { completeIfDone() }
  }

  /// Counts so far.
  public var progress: Progress { state.withLock { $0.progress } }

  private func pump() {
    while true {
      let next = state.withLock { state -> (Int, Int, ImageRequest)? in
        guard state.running.count + state.starting.count < maximumConcurrentPrefetches,
          state.pendingHead < state.pending.count
        else {
          return nil
        }
        let id = state.nextID
        state.nextID += 1
        state.starting.insert(id)
        let request = state.pending[state.pendingHead]
        state.pendingHead += 1
        if state.pendingHead == state.pending.count {
          state.pending = []
          state.pendingHead = 0
        }
        return (id, state.generation, request)
      }
      guard let (id, generation, request) = next else { break }
      let key = request.cacheKey(defaultFilter: manager.configuration.cacheKeyFilter)
      if !request.options.contains(.forceRefresh), manager.configuration.cache.cachedType(forKey: key) != .none {
        state.withLock { _ = $0.starting.remove(id) }
        record { $0.skipped += 1 }
        continue
      }
      let task = manager.loadImage(with: request, callbackQueue: .immediate) { [weak self] result in
        self?.finished(id, result)
      }
      // The completion may already have run (it found the slot in
      // `starting`); only a task still going is kept for cancelAll.
      let cancelNow = state.withLock { state -> Bool in
        guard state.starting.remove(id) != nil else { return false }
        state.running[id] = task
        return state.generation != generation
      }
      if cancelNow { task.cancel() }
    }
    completeIfDone()
  }

  private func finished(_ id: Int, _ result: Result<ImageResult, MagpieError>) {
    state.withLock { state in
      state.starting.remove(id)
      state.running[id] = nil
    }
    record { progress in
      if case .success = result { progress.finished += 1 } else { progress.failed += 1 }
    }
    pump()
  }

  private func record(_ change: (inout Progress) -> Void) {
    let (progress, handler) = state.withLock { state -> (Progress, (@Sendable (Progress) -> Void)?) in
      change(&state.progress)
      return (state.progress, state.onProgress)
    }
    handler?(progress)
  }

  private func completeIfDone() {
    let (waiters, progress) = state.withLock { state -> ([CheckedContinuation<Progress, Never>], Progress) in
      guard state.pending.isEmpty, state.running.isEmpty, state.progress.completed >= state.progress.total else {
        return ([], state.progress)
      }
      defer { state.waiters = [] }
      return (state.waiters, state.progress)
    }
    for waiter in waiters { waiter.resume(returning: progress) }
  }
}
