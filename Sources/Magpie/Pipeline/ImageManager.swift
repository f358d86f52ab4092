import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The pipeline users call (SDWebImageManager, KingfisherManager, Nuke's
/// ImagePipeline): memory cache → disk cache (processed, then original) →
/// source → decode → process → store → deliver.
///
/// The work is a graph of shared stages, as in Nuke: one fetch per source
/// (the original from a cache tier, or the download), one decode per
/// fetched bytes and decode options, one processing pass per processor
/// chain, then the store. Three requests for one URL with three chains
/// make one download, one decode and three passes; identical requests
/// share all of it. A stage stops only when every task that needs it is
/// cancelled, and waits at the highest priority among them. Downloads,
/// decodes and processing each have their own limit
/// (``Concurrency``) and never run on the caller's thread.
///
/// ```swift
/// let result = try await manager.image(for: ImageRequest(url: url, processors: [thumbnail]))
/// result.image      // processed, upright RGBA; .pixels.premultiplied() to draw
/// result.cacheType  // .none, .memory or .disk
/// ```
public final class ImageManager: Sendable {
  /// The configuration in force.
  public let configuration: Configuration
  let decodeLimiter: WorkLimiter
  let processLimiter: WorkLimiter
  let validators: ValidatorStore
  /// Running fetches: one per source, cache key and transfer.
  let fetches: StageTable<FetchKey, FetchedData>
  /// Running decodes: one per fetch and decode plan.
  let decodes: StageTable<DecodeKey, DecodedImage>
  /// The job table: one ``LoadJob`` per processed result and cache behaviour.
  let jobs = EngineGuarded<[JobKey: LoadJob]>([:])
  let failedSources = FailedSourceMemory()
  /// How many failed sources are remembered (``FailedSourceMemory``).
  static var failedSourceCount: Int { FailedSourceMemory.capacity }
  private let nextTaskID = Atomic<Int>(0)
  private let pendingWrites = Lock<(count: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))
  /// Told of a failed tier write: the configuration's callback and the
  /// delegate.
  let storageWriteFailed: (@Sendable (MagpieError, ImageCacheKey) -> Void)?
  /// Told of a failed tier read (besides the cache's own callback): the
  /// delegate.
  let storageReadFailed: (@Sendable (MagpieError, ImageCacheKey, String) -> Void)?
  /// The configuration's delegate, when there is one: read once here, so
  /// that a load without one tests a stored value, not the configuration.
  let delegate: (any ImageManagerDelegate)?
  /// Whether HTTP caching is on for every load.
  let followsHTTPCaching: Bool

  /// A manager with `configuration`.
  public init(configuration: Configuration) {
    self.configuration = configuration
    let concurrency = configuration.concurrency
    let observer = configuration.engineObserver
    decodeLimiter = WorkLimiter(label: "magpie.decode", limit: concurrency.decodes, stage: .decode, observer: observer)
    processLimiter = WorkLimiter(
      label: "magpie.process", limit: concurrency.processing, stage: .process, observer: observer)
    fetches = StageTable(kind: .fetch, observer: observer)
    decodes = StageTable(kind: .decode, observer: observer)
    if configuration.downloader.maximumConcurrentDownloads != concurrency.downloads {
      configuration.downloader.setMaximumConcurrentDownloads(concurrency.downloads)
    }
    validators = ValidatorStore(cache: configuration.cache)
    delegate = configuration.delegate
    followsHTTPCaching = configuration.httpCaching != nil
    let callback = configuration.cacheWriteFailed
    if let delegate = configuration.delegate {
      storageWriteFailed = { error, key in
        callback?(error, key)
        delegate.cacheWriteFailed(error, key: key)
      }
      storageReadFailed = { error, key, tier in delegate.cacheReadFailed(error, key: key, tier: tier) }
    } else {
      storageWriteFailed = callback
      storageReadFailed = nil
    }
  }

  // MARK: Loading

  /// Starts loading `request` and returns its task: await its
  /// ``ImageTask/response`` or ``ImageTask/image``, read its
  /// ``ImageTask/events`` or ``ImageTask/progress``, change its
  /// ``ImageTask/priority``, ``ImageTask/cancel()`` it. A memory-cache hit
  /// returns a task that has already finished.
  ///
  /// One cancellation rule holds for every form: a load stops when its
  /// task is cancelled, by ``ImageTask/cancel()`` or by cancelling the Swift
  /// task that awaits it (``ImageTask/response``, ``ImageTask/image``,
  /// ``image(for:progress:partialImage:)``); it then ends with
  /// ``MagpieError/Code/cancelled``. Work it shares with other loads stops
  /// only when every load that needs it is cancelled.
  public func imageTask(with request: ImageRequest) -> ImageTask {
    // Without a delegate the request is used as given: no copy of it.
    if delegate != nil { return task(for: prepared(request)) }
    return task(for: request)
  }

  private func task(for request: ImageRequest) -> ImageTask {
    let memory = memoryLookup(for: request)
    if let hit = memory.hit { return finishedTask(request, hit: hit) }
    let task = makeTask(request)
    start(task, cacheKey: memory.key, progress: nil, partialImage: nil, completion: nil)
    return task
  }

  /// Loads the image `request` describes: ``imageTask(with:)`` awaited,
  /// with its progress and progressive previews to the closures.
  /// Cancelling the calling task cancels this load.
  public func image(
    for request: ImageRequest, progress: (@Sendable (ImageTask.Progress) -> Void)? = nil,
    partialImage: (@Sendable (Image) -> Void)? = nil
  ) async throws(MagpieError) -> ImageResult {
    // A memory hit is a task that finished at once: its result, without
    // the task (made only for a delegate to see).
    if delegate != nil {
      let request = prepared(request)
      if let hit = memoryLookup(for: request).hit {
        _ = finishedTask(request, hit: hit)
        return hit
      }
      return try await task(for: request, progress: progress, partialImage: partialImage).response
    }
    let memory = memoryLookup(for: request)
    if let hit = memory.hit { return hit }
    let task = makeTask(request)
    start(task, cacheKey: memory.key, progress: progress, partialImage: partialImage, completion: nil)
    return try await task.response
  }

  /// A task for `request` (memory missed or skipped) with its callbacks.
  private func task(
    for request: ImageRequest, progress: (@Sendable (ImageTask.Progress) -> Void)?,
    partialImage: (@Sendable (Image) -> Void)?
  ) -> ImageTask {
    let memory = memoryLookup(for: request)
    let task = makeTask(request)
    start(task, cacheKey: memory.key, progress: progress, partialImage: partialImage, completion: nil)
    return task
  }

  /// The processed image for `request` if the memory cache has it; never
  /// touches the disk or the network.
  public func cachedImage(for request: ImageRequest) -> Image? {
    configuration.cache.memoryCache.value(forKey: cacheKey(for: prepared(request)).stringValue)
  }

  /// Forgets every URL remembered as failed.
  public func clearFailedSources() {
    failedSources.removeAll()
  }

  /// Waits until every disk-cache write started so far has finished (call
  /// before a command-line tool exits).
  public func waitForPendingWrites() async {
    await withCheckedContinuation { continuation in
      let done = pendingWrites.withLock { state -> Bool in
        if state.count == 0 { return true }
        state.waiters.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }

  // MARK: Tasks and jobs

  func makeTask(_ request: ImageRequest) -> ImageTask {
    let task = ImageTask(
      id: nextTaskID.wrappingAdd(1, ordering: .relaxed).oldValue, request: request, delegate: delegate)
    delegate?.imageTaskCreated(task)
    return task
  }

  /// A task that finished with a memory hit as it was made, shown to the
  /// delegate.
  private func finishedTask(_ request: ImageRequest, hit: ImageResult) -> ImageTask {
    let id = nextTaskID.wrappingAdd(1, ordering: .relaxed).oldValue
    let task = ImageTask(id: id, request: request, finished: .success(hit))
    if let delegate {
      delegate.imageTaskCreated(task)
      delegate.imageTask(task, didReceive: .finished(.success(hit)))
    }
    return task
  }

  /// `request` with the cache policy the delegate gives it.
  func prepared(_ request: ImageRequest) -> ImageRequest {
    guard let delegate else { return request }
    let options = delegate.cacheOptions(for: request)
    guard options != request.options else { return request }
    var changed = request
    changed.options = options
    return changed
  }

  /// The key `request`'s image is cached under: its own, through the
  /// manager's filter, unless the delegate chooses another.
  func cacheKey(for request: ImageRequest) -> ImageCacheKey {
    let key = request.cacheKey(defaultFilter: configuration.cacheKeyFilter)
    guard let delegate else { return key }
    return delegate.cacheKey(for: request, proposed: key)
  }

  func memoryHit(for request: ImageRequest) -> ImageResult? {
    memoryLookup(for: request).hit
  }

  /// The memory cache's answer for `request`, and the cache key it was
  /// asked with: built once, a miss's load goes on with it.
  func memoryLookup(for request: ImageRequest) -> (hit: ImageResult?, key: ImageCacheKey) {
    let key = cacheKey(for: request)
    // Loads that skip memory, or want bytes with a hit, go to the job.
    guard request.options.isDisjoint(with: Self.optionsSkippingMemoryHits), !request.skipsMemoryReads,
      let image = configuration.cache.memoryCache.value(forKey: key.stringValue)
    else { return (nil, key) }
    // With HTTP caching, only a hit this process knows is fresh.
    if followsHTTPCaching || request.options.contains(.followHTTPCaching),
      !servesMemoryHitAtOnce(key)
    {
      return (nil, key)
    }
    let hit = ImageResult(image: image, cacheType: .memory, request: request, data: nil, metrics: ImageTaskMetrics())
    return (hit, key)
  }

  /// Options whose loads a memory hit does not finish at once.
  private static let optionsSkippingMemoryHits: ImageLoadingOptions = [
    .forceRefresh, .refreshCached, .disableMemoryCacheReads, .loadDataForMemoryHits,
  ]

  /// Failures that will not go away by asking again (see
  /// ``FailedSourceMemory/isPermanent(_:)``).
  static func isPermanent(_ error: MagpieError) -> Bool { FailedSourceMemory.isPermanent(error) }

  // MARK: Disk writes after delivery

  func beginWrite() {
    pendingWrites.withLock { $0.count += 1 }
  }

  func endWrite() {
    let waiters = pendingWrites.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.count -= 1
      guard state.count == 0 else { return [] }
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
