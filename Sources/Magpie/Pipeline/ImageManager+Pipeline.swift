import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ImageManager {
  /// One pipeline run for a job: caches, source, decode, process, store.
  func run(_ job: LoadJob) async -> Result<ImageResult, MagpieError> {
    let clock = ContinuousClock()
    let started = clock.now
    var metrics = ImageTaskMetrics()
    do throws(MagpieError) {
      var result = try await produce(job, metrics: &metrics)
      result.metrics = metrics
      result.metrics.total = clock.now - started
      return .success(result)
    } catch {
      guard !job.request.alternativeSources.isEmpty, error.code != .cancelled, !Task.isCancelled else {
        return .failure(error)
      }
      return await fallBack(job, after: error)
    }
  }

  private func produce(_ job: LoadJob, metrics: inout ImageTaskMetrics) async throws(MagpieError) -> ImageResult {
    let request = job.request
    let options = request.options
    let cache = configuration.cache
    let key = job.keys.cache
    let clock = ContinuousClock()

    if !options.contains(.forceRefresh) {
      // Memory again (another run may have stored it since the fast path).
      if let image = cache.memoryCache.value(forKey: key.stringValue) {
        if options.contains(.refreshCached) {
          return try await revalidate(job, cached: image, cacheType: .memory, metrics: &metrics)
        }
        return ImageResult(image: image, cacheType: .memory, request: request, data: nil, metrics: metrics)
      }
      let readStart = clock.now
      let decodeOptions = self.decodeOptions(for: request, keepingOriginal: false)
      let refreshing = options.contains(.refreshCached)
      let failed = configuration.cacheWriteFailed
      let processed = await cache.readTiers(
        forKey: key, decoding: decodeOptions, fills: !refreshing, writeFailed: failed)
      metrics.cacheRead += clock.now - readStart
      if let processed, let image = processed.image {
        metrics.bytesFromCache += processed.data.count
        if refreshing {
          return try await revalidate(job, cached: image, cacheType: processed.cacheType, metrics: &metrics)
        }
        if processed.fillsMemory { keepInMemory(image, forKey: key, options: options) }
        if let fill = processed.fill { writeBehind(fill) }
        return ImageResult(image: image, cacheType: processed.cacheType, request: request, data: nil, metrics: metrics)
      }
    }
    // The original, from a tier that kept it (for processed keys) or the
    // source, through the stages shared with every chain over it.
    let fromTiers = key.isProcessed && !options.contains(.forceRefresh) && !options.contains(.refreshCached)
    let sources = FetchSources(cache: fromTiers, source: !options.contains(.fromCacheOnly))
    let plan = decodePlan(for: request)
    let decoded = try await decoded(request, plan: plan, from: sources, job: job)
    let image = try await process(decoded, plan: plan, job: job, metrics: &metrics)
    let fetched = decoded.fetched
    let fromSource = fetched.cacheType == .none
    await store(
      image, data: fetched.data, key: key, request: request,
      storeOriginal: fromSource && (options.contains(.cacheOriginalImage) || image.isProcessedAnimation),
      response: fetched.response, metrics: &metrics)
    return ImageResult(
      image: image, cacheType: fetched.cacheType, request: request, data: fetched.data, metrics: metrics)
  }
}
