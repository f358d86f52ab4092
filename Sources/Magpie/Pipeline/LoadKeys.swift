/// A load's keys, built once when it starts and carried by its job: where
/// its result is cached, its source's key, its transfer, and its job's.
struct LoadKeys: Sendable {
  /// Where the processed image is cached.
  let cache: ImageCacheKey
  /// The source's key (the cache key of the original).
  let source: String
  /// The download's key, for network sources.
  let transfer: TransferKey?
  /// The job table's key.
  let job: JobKey
  /// The cache tiers the load reads and writes.
  let access: TierAccess
  /// The response modifiers and data transformers it runs.
  let hooks: ResponseHooks
  /// The downloader it goes through: the manager's, or the delegate's
  /// choice.
  let downloader: ImageDownloader

  /// The keys of `request`, whose cache key is `cache` (built by the
  /// memory check before the load starts).
  init(_ request: ImageRequest, cache: ImageCacheKey, configuration: ImageManager.Configuration) {
    self.cache = cache
    source = cache.source
    hooks = ResponseHooks(request, configuration: configuration)
    downloader = configuration.delegate?.downloader(for: request) ?? configuration.downloader
    if case .network(let urlRequest) = request.source {
      transfer = TransferKey(hooks.prepared(urlRequest))
    } else {
      transfer = nil
    }
    let behaviour: ImageLoadingOptions = [
      .refreshCached, .fromCacheOnly, .forceRefresh, .cacheMemoryOnly, .cacheOriginalImage, .disableMemoryCacheWrites,
      .cacheLocalSources, .disableMemoryCacheReads, .disableDiskCacheReads, .waitForCacheWrites,
      .loadDataForMemoryHits, .followHTTPCaching,
    ]
    access = TierAccess(request)
    job = JobKey(
      cache: cache, behaviour: request.options.intersection(behaviour).rawValue, access: access, transfer: transfer,
      hooks: hooks.key, downloader: ObjectIdentifier(downloader),
      alternatives: request.alternativeSources.map(ImageManager.identity(of:)))
  }
}

/// One ``LoadJob`` per processed result, cache behaviour and transfer:
/// requests with equal keys share the job.
struct JobKey: Hashable, Sendable {
  /// Where the processed image is cached.
  let cache: ImageCacheKey
  /// The options that change what the job does with the caches.
  let behaviour: ImageLoadingOptions.RawValue
  /// The cache tiers it reads and writes.
  let access: TierAccess
  /// The download's key, for network sources (headers can differ).
  let transfer: TransferKey?
  /// The response hooks' identifiers.
  let hooks: [String]
  /// The downloader it goes through.
  let downloader: ObjectIdentifier
  /// The fallback sources, in order (requests that fall back differently
  /// are different work).
  let alternatives: [String]
}
