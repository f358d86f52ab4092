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

    let access = job.keys.access
    if !options.contains(.forceRefresh) {
      // Memory again (another run may have stored it since the fast path).
      if access.readsMemory, let image = cache.memoryCache.value(forKey: key.stringValue) {
        if await revalidates(key, request: request) {
          return try await revalidate(job, cached: image, cacheType: .memory, metrics: &metrics)
        }
        var data: Data?
        if options.contains(.loadDataForMemoryHits) { data = await storedData(for: key, access: access) }
        return ImageResult(image: image, cacheType: .memory, request: request, data: data, metrics: metrics)
      }
      let readStart = clock.now
      let decodeOptions = self.decodeOptions(for: request, keepingOriginal: false)
      let refreshing = options.contains(.refreshCached)
      let failed = storageWriteFailed
      let processed = await cache.readTiers(
        forKey: key, decoding: decodeOptions, fills: !refreshing, access: access, readFailed: storageReadFailed,
        writeFailed: failed)
      metrics.cacheRead += clock.now - readStart
      if let processed, let image = processed.image {
        metrics.bytesFromCache += processed.data.count
        if await revalidates(key, request: request) {
          return try await revalidate(job, cached: image, cacheType: processed.cacheType, metrics: &metrics)
        }
        if processed.fillsMemory { keepInMemory(image, forKey: key, access: access) }
        if let fill = processed.fill { writeBehind(fill) }
        // A pending write serves its image without bytes.
        let data = processed.data.isEmpty ? nil : processed.data
        return ImageResult(image: image, cacheType: processed.cacheType, request: request, data: data, metrics: metrics)
      }
    }
    // The original, from a tier that kept it (for processed keys) or the
    // source, through the stages shared with every chain over it.
    let fromTiers =
      key.isProcessed && !access.readsNoStorage && !options.contains(.forceRefresh)
      && !options.contains(.refreshCached)
    let sources = FetchSources(cache: fromTiers, source: !options.contains(.fromCacheOnly))
    let plan = decodePlan(for: request)
    let decoded: DecodedImage
    let image: Image
    do throws(MagpieError) {
      decoded = try await self.decoded(request, plan: plan, from: sources, job: job)
      image = try await process(decoded, plan: plan, job: job, metrics: &metrics)
    } catch {
      // A shared tier that makes other processes wait for this entry (and
      // its original's) after the miss lets them go now: none is coming.
      await cache.abandonFetch(forKey: key, access: access)
      throw error
    }
    let fetched = decoded.fetched
    let fromSource = fetched.cacheType == .none
    await store(
      image, data: fetched.data, keys: job.keys, request: request,
      storeOriginal: fromSource && (options.contains(.cacheOriginalImage) || image.isProcessedAnimation),
      response: fetched.response, metrics: &metrics)
    return ImageResult(
      image: image, cacheType: fetched.cacheType, request: request, data: fetched.data, metrics: metrics)
  }

  /// The bytes stored for `key` in the first tier `access` reads (the
  /// processed entry's, else the original's), for a memory hit that asked
  /// for them.
  private func storedData(for key: ImageCacheKey, access: TierAccess) async -> Data? {
    let cache = configuration.cache
    if let hit = await cache.readTiers(forKey: key, decoding: nil, fills: false, access: access, writeFailed: nil) {
      return hit.data
    }
    guard key.isProcessed else { return nil }
    return await cache.readTiers(forKey: key.original, decoding: nil, fills: false, access: access, writeFailed: nil)?
      .data
  }
}
