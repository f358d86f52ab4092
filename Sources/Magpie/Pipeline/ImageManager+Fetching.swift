import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ImageManager {
  /// Where a fetch may find the source's bytes.
  struct FetchSources: Sendable {
    /// Look for the stored original in the cache tiers first.
    var cache: Bool
    /// Go to the source when no tier has it.
    var source: Bool
  }

  /// The fetch stage's key for `request`, whose keys are `keys`: one
  /// fetch per source, transfer and place to look. `transfer` is the
  /// request's own unless it was changed (a conditional request).
  func fetchKey(
    for request: ImageRequest, keys: LoadKeys, transfer: TransferKey?, from sources: FetchSources
  ) -> FetchKey {
    FetchKey(
      source: keys.source, transfer: transfer, fromCache: sources.cache, access: keys.access,
      fromSource: sources.source,
      // Bytes a transformer has yet to turn into an image make no preview.
      progressive: !request.options.isDisjoint(with: [.progressiveLoad, .embeddedThumbnailPreview])
        && keys.hooks.transformers.isEmpty,
      hooks: keys.hooks.key, downloader: ObjectIdentifier(keys.downloader))
  }

  /// Joins (or starts) the fetch `key` names for `request`, passing its
  /// events to `observer` and, when given, its outcome to `completion`
  /// (without a task waiting for it). A fetch straight from the network
  /// is the download's outcome, passed on without a task of its own; one
  /// that reads the tiers first, or a provider, runs on a task.
  func subscribeFetch(
    for request: ImageRequest, keys: LoadKeys, key: FetchKey,
    priority: ImageRequest.Priority, observer: StageObserver,
    completion: PipelineStage<FetchedData>.Completion? = nil
  ) -> StageSubscription<FetchedData> {
    fetches.subscribe(
      key: key, priority: priority, observer: observer, wantsData: false, completion: completion
    ) { [self] stage in
      // Straight from the network with nothing to run on the bytes: the
      // download's outcome, passed on without a task.
      if !key.fromCache, key.fromSource, keys.hooks.isEmpty, case .network(let urlRequest) = request.source,
        !LocalURLSource.isLocal(urlRequest.url)
      {
        stage.start(driving: { download(urlRequest, key: key, through: keys.downloader, stage: $0) })
      } else {
        stage.start { [self] fetch throws(MagpieError) in
          try await self.fetch(request, keys: keys, key: key, stage: fetch)
        }
        configuration.engineObserver?(.taskMade(.stage(.fetch)))
      }
    }
  }

  /// The fetch stage as the download's outcome, passed on from the thread
  /// that ends it; returns how to stop it.
  private func download(
    _ urlRequest: URLRequest, key: FetchKey, through downloader: ImageDownloader, stage: PipelineStage<FetchedData>
  ) -> @Sendable () -> Void {
    let priority = stage.priority
    let download = downloader.subscribe(
      urlRequest, key: key.transfer, priority: priority, wantsData: key.progressive,
      observer: .sink(stage, passesData: key.progressive)
    ) { result in
      stage.complete(result.map(Self.fetched))
    }
    stage.wait(on: .stage(download), startedAt: priority)
    return { download.cancel() }
  }

  /// A finished download as the fetch stage hands it on.
  private static func fetched(_ response: ImageDownloader.Response) -> FetchedData {
    var metrics = ImageTaskMetrics()
    metrics.queueWait += response.metrics.queueWait
    metrics.network += response.metrics.transfer
    metrics.attempts += response.metrics.attempts
    metrics.bytesLoaded += response.data.count
    return FetchedData(data: response.data, response: response.response, cacheType: .none, metrics: metrics)
  }

  /// The fetch stage's work: the original from the first cache tier that
  /// has it, else the source's bytes.
  private func fetch(
    _ request: ImageRequest, keys: LoadKeys, key fetchKey: FetchKey, stage: PipelineStage<FetchedData>
  ) async throws(MagpieError) -> FetchedData {
    let key = keys.cache
    let hooks = keys.hooks
    var metrics = ImageTaskMetrics()
    if fetchKey.fromCache {
      let clock = ContinuousClock()
      let start = clock.now
      let original = await configuration.cache.readTiers(
        forKey: key.original, decoding: nil, fills: true, access: fetchKey.access,
        readFailed: storageReadFailed, writeFailed: storageWriteFailed)
      metrics.cacheRead += clock.now - start
      if let original {
        metrics.bytesFromCache += original.data.count
        if let fill = original.fill { writeBehind(fill) }
        return FetchedData(data: original.data, response: nil, cacheType: original.cacheType, metrics: metrics)
      }
    }
    guard fetchKey.fromSource else {
      // The key is a URL string as often as not: shown redacted.
      let shown = URL(string: key.source).map(\.redactedDescription) ?? "the image"
      throw MagpieError(.notCached, "\(shown) is not in the cache and the request allows only the cache")
    }
    var (data, response) = try await load(
      request, transfer: fetchKey.transfer, keys: keys, progressive: fetchKey.progressive, stage: stage,
      metrics: &metrics)
    if !hooks.isEmpty { (data, response) = try await hooks.apply(to: data, response: response) }
    return FetchedData(data: data, response: response, cacheType: .none, metrics: metrics)
  }

  /// The source's bytes: downloaded (shared with identical downloads), or
  /// read from the provider or the `file://` or `data:` URL, at the
  /// stage's priority.
  private func load(
    _ request: ImageRequest, transfer: TransferKey?, keys: LoadKeys, progressive: Bool,
    stage: PipelineStage<FetchedData>,
    metrics: inout ImageTaskMetrics
  ) async throws(MagpieError) -> (Data, HTTPURLResponse?) {
    let clock = ContinuousClock()
    let start = clock.now
    let local: Data
    switch request.source {
    case .provider(let provider):
      local = try await provider.data()
    case .network(let urlRequest) where LocalURLSource.isLocal(urlRequest.url):
      local = try await LocalURLSource.data(of: urlRequest.url!, maximumBytes: configuration.maximumLocalSourceBytes)
    case .network(let urlRequest):
      let priority = stage.priority
      let download = keys.downloader.subscribe(
        keys.hooks.prepared(urlRequest), key: transfer, priority: priority, wantsData: progressive,
        observer: .sink(stage, passesData: progressive))
      let fetched = Self.fetched(try await stage.awaiting(download, subscribedAt: priority))
      metrics.add(fetched.metrics)
      return (fetched.data, fetched.response)
    }
    metrics.network += clock.now - start
    metrics.bytesLoaded += local.count
    stage.send(.progress(received: Int64(local.count), expected: Int64(local.count)))
    return (local, nil)
  }
}
