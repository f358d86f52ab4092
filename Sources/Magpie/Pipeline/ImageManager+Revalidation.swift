import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ImageManager {
  /// Asks the origin whether the cached image changed: keeps it on 304,
  /// loads and stores the new one otherwise.
  func revalidate(
    _ job: LoadJob, cached: Image, cacheType: CacheType, metrics: inout ImageTaskMetrics
  ) async throws(MagpieError) -> ImageResult {
    let request = job.request
    let key = request.cacheKey(defaultFilter: configuration.cacheKeyFilter)
    guard case .network(var urlRequest) = request.source,
      let validators = await validators.validators(for: key)
    else {
      // Nothing to ask with (a provider, or no validators): load afresh.
      var fresh = request
      fresh.options.remove(.refreshCached)
      fresh.options.insert(.forceRefresh)
      let (data, response) = try await load(job, request: fresh, metrics: &metrics)
      let image = try await decodeAndProcess(data, request: request, job: job, metrics: &metrics)
      await store(
        image, data: data, key: key, request: request, storeOriginal: false, response: response, metrics: &metrics)
      return ImageResult(image: image, cacheType: .none, request: request, data: data, metrics: metrics)
    }
    validators.apply(to: &urlRequest)
    var conditional = request
    conditional.source = .network(urlRequest)
    let (data, response) = try await load(job, request: conditional, metrics: &metrics)
    if response?.statusCode == 304 {
      metrics.revalidated = true
      if cacheType != .memory {
        keepInMemory(cached, forKey: key)
      }
      return ImageResult(image: cached, cacheType: cacheType, request: request, data: nil, metrics: metrics)
    }
    let image = try await decodeAndProcess(data, request: request, job: job, metrics: &metrics)
    await store(
      image, data: data, key: key, request: request, storeOriginal: false, response: response, metrics: &metrics)
    return ImageResult(image: image, cacheType: .none, request: request, data: data, metrics: metrics)
  }
}
