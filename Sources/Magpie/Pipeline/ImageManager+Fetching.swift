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

  /// The fetch stage's key: one fetch per source, cache key, transfer
  /// (URL, method, headers) and where it may look.
  func fetchKey(for request: ImageRequest, from sources: FetchSources) -> String {
    var key = request.sourceKey(defaultFilter: configuration.cacheKeyFilter)
    if case .network(let urlRequest) = request.source {
      key += "\n" + ImageDownloader.coalescingKey(for: urlRequest)
    }
    let progressive = request.options.contains(.progressiveLoad)
    return key + "\n\(sources.cache ? "c" : "-")\(sources.source ? "s" : "-")\(progressive ? "p" : "-")"
  }

  /// Joins (or starts) the fetch for `request`, passing its events to
  /// `observer`.
  func subscribeFetch(
    for request: ImageRequest, from sources: FetchSources, key: String, priority: ImageRequest.Priority,
    observer: @escaping @Sendable (StageEvent) -> Void
  ) -> StageSubscription<FetchedData> {
    fetches.subscribe(key: key, priority: priority, observer: observer) {
      [self] fetch throws(MagpieError) in
      try await self.fetch(request, from: sources, stage: fetch)
    }
  }

  /// The fetch stage's work: the original from the first cache tier that
  /// has it, else the source's bytes.
  private func fetch(
    _ request: ImageRequest, from sources: FetchSources, stage: PipelineStage<FetchedData>
  ) async throws(MagpieError) -> FetchedData {
    var metrics = ImageTaskMetrics()
    let key = request.cacheKey(defaultFilter: configuration.cacheKeyFilter)
    if sources.cache {
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
    guard sources.source else {
      // The key is a URL string as often as not: shown redacted.
      let shown = URL(string: key.source).map(\.redactedDescription) ?? "the image"
      throw MagpieError(.notCached, "\(shown) is not in the cache and the request allows only the cache")
    }
    let (data, response) = try await load(request, stage: stage, metrics: &metrics)
    return FetchedData(data: data, response: response, cacheType: .none, metrics: metrics)
  }

  /// The source's bytes: downloaded (shared with identical downloads) or
  /// read from the provider, at the stage's priority.
  private func load(
    _ request: ImageRequest, stage: PipelineStage<FetchedData>, metrics: inout ImageTaskMetrics
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
        urlRequest, priority: priority, wantsData: progressive,
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
