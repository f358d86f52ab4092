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
      source: keys.source, transfer: transfer, fromCache: sources.cache, fromSource: sources.source,
      progressive: request.options.contains(.progressiveLoad))
  }

  /// Joins (or starts) the fetch `key` names for `request`, passing its
  /// events to `observer`.
  func subscribeFetch(
    for request: ImageRequest, cacheKey: ImageCacheKey, key: FetchKey, priority: ImageRequest.Priority,
    observer: @escaping @Sendable (StageEvent) -> Void
  ) -> StageSubscription<FetchedData> {
    fetches.subscribe(key: key, priority: priority, observer: observer) {
      [self] fetch throws(MagpieError) in
      try await self.fetch(request, cacheKey: cacheKey, key: key, stage: fetch)
    }
  }

  /// The fetch stage's work: the original from the first cache tier that
  /// has it, else the source's bytes.
  private func fetch(
    _ request: ImageRequest, cacheKey key: ImageCacheKey, key fetchKey: FetchKey, stage: PipelineStage<FetchedData>
  ) async throws(MagpieError) -> FetchedData {
    var metrics = ImageTaskMetrics()
    if fetchKey.fromCache {
      let clock = ContinuousClock()
      let start = clock.now
      let original = await configuration.cache.readTiers(
        forKey: key.original, decoding: nil, fills: true, writeFailed: configuration.cacheWriteFailed)
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
    let (data, response) = try await load(request, transfer: fetchKey.transfer, stage: stage, metrics: &metrics)
    return FetchedData(data: data, response: response, cacheType: .none, metrics: metrics)
  }

  /// The source's bytes: downloaded (shared with identical downloads) or
  /// read from the provider, at the stage's priority.
  private func load(
    _ request: ImageRequest, transfer: TransferKey?, stage: PipelineStage<FetchedData>,
    metrics: inout ImageTaskMetrics
  ) async throws(MagpieError) -> (Data, HTTPURLResponse?) {
    let clock = ContinuousClock()
    switch request.source {
    case .provider(let provider):
      let start = clock.now
      let data = try await provider.data()
      metrics.network += clock.now - start
      metrics.bytesLoaded += data.count
      stage.send(.progress(received: Int64(data.count), expected: Int64(data.count)))
      return (data, nil)
    case .network(let urlRequest):
      let progressive = request.options.contains(.progressiveLoad)
      let priority = stage.priority
      let download = configuration.downloader.subscribe(
        urlRequest, key: transfer, priority: priority, wantsData: progressive,
        observer: { event in
          // Another fetch's progressive load may share the transfer.
          if case .data = event, !progressive { return }
          stage.send(event)
        })
      let response = try await stage.awaiting(download, subscribedAt: priority)
      metrics.queueWait += response.metrics.queueWait
      metrics.network += response.metrics.transfer
      metrics.attempts += response.metrics.attempts
      metrics.bytesLoaded += response.data.count
      return (response.data, response.response)
    }
  }
}
