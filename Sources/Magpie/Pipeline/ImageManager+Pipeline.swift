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
      return .failure(error)
    }
  }

  private func produce(_ job: LoadJob, metrics: inout ImageTaskMetrics) async throws(MagpieError) -> ImageResult {
    let request = job.request
    let options = request.options
    let cache = configuration.cache
    let key = request.cacheKey(defaultFilter: configuration.cacheKeyFilter)
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
        if processed.fillsMemory { keepInMemory(image, forKey: key) }
        if let fill = processed.fill { writeBehind(fill) }
        return ImageResult(image: image, cacheType: processed.cacheType, request: request, data: nil, metrics: metrics)
      }
      if key.isProcessed, !refreshing {
        let originalStart = clock.now
        let original = await cache.readTiers(forKey: key.original, decoding: nil, fills: true, writeFailed: failed)
        metrics.cacheRead += clock.now - originalStart
        if let original {
          metrics.bytesFromCache += original.data.count
          if let fill = original.fill { writeBehind(fill) }
          let image = try await decodeAndProcess(original.data, request: request, job: job, metrics: &metrics)
          await store(
            image, data: original.data, key: key, request: request, storeOriginal: false, response: nil,
            metrics: &metrics)
          return ImageResult(
            image: image, cacheType: original.cacheType, request: request, data: original.data, metrics: metrics)
        }
      }
    }
    if options.contains(.fromCacheOnly) {
      throw MagpieError(.notCached, "\(key) is not in the cache and the request allows only the cache")
    }
    let (data, response) = try await load(job, request: request, metrics: &metrics)
    let image = try await decodeAndProcess(data, request: request, job: job, metrics: &metrics)
    await store(
      image, data: data, key: key, request: request, storeOriginal: options.contains(.cacheOriginalImage),
      response: response, metrics: &metrics)
    return ImageResult(image: image, cacheType: .none, request: request, data: data, metrics: metrics)
  }
}
