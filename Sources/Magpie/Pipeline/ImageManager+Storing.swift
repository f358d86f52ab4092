import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ImageManager {
  /// Stores in memory now, in write-through tiers before delivery and in
  /// write-behind tiers (the disk cache) after it, with the response's
  /// revalidation headers; a failed write goes to
  /// ``Configuration/cacheWriteFailed``. Partial images are not cached;
  /// for a processed on-demand animation the tiers get the original bytes.
  /// Only the tiers the load's access writes are written; with
  /// ``ImageLoadingOptions/waitForCacheWrites`` the write-behind runs
  /// before this returns.
  func store(
    _ image: Image, data: Data, keys: LoadKeys, request: ImageRequest, storeOriginal: Bool,
    response: HTTPURLResponse?, metrics: inout ImageTaskMetrics
  ) async {
    guard !image.isPartial else { return }
    let key = keys.cache
    let access = keys.access
    let policy = cachePolicy(for: request, response: response)
    // `no-store`: kept nowhere, memory included.
    if policy?.noStore == true { return validators.setValidators(nil, for: key) }
    let newValidators = response.flatMap { ValidatorStore.Validators($0, policy: policy) }
    validators.setValidators(newValidators, for: key)
    let cache = configuration.cache
    let clock = ContinuousClock()
    let start = clock.now
    keepInMemory(image, forKey: key, access: access)
    guard !access.writesNoStorage, !cache.tiers.isEmpty,
      !request.isLocalSource || request.options.contains(.cacheLocalSources)
    else {
      metrics.cacheWrite += clock.now - start
      return
    }
    let failed = storageWriteFailed
    let metadata = newValidators?.encoded
    // A processed on-demand animation is not re-encoded (that would decode
    // every frame, and quantize a GIF's again): the caller stores the
    // original instead, and the next load runs the processors per frame.
    let stored = image.isProcessedAnimation ? nil : image
    let original = storeOriginal
    await cache.storeInTiers(
      stored, original: data, forKey: key, metadata: metadata, alsoOriginal: original, mode: .writeThrough,
      access: access, failed: failed)
    if request.options.contains(.waitForCacheWrites) {
      await cache.storeInTiers(
        stored, original: data, forKey: key, metadata: metadata, alsoOriginal: original, mode: .writeBehind,
        access: access, failed: failed)
      metrics.cacheWrite += clock.now - start
      return
    }
    // Reads see the write-behind from now until it lands.
    let pending = cache.stageWriteBehind(
      stored, original: data, forKey: key, metadata: metadata, alsoOriginal: original, access: access)
    metrics.cacheWrite += clock.now - start
    writeBehind {
      await cache.storeInTiers(
        stored, original: data, forKey: key, metadata: metadata, alsoOriginal: original, mode: .writeBehind,
        access: access, failed: failed)
      if let pending { cache.pendingWrites.land(pending) }
    }
  }

  /// Runs `work` after delivery, counted by ``waitForPendingWrites()``.
  func writeBehind(_ work: @escaping @Sendable () async -> Void) {
    beginWrite()
    Task.detached { [self] in
      defer { endWrite() }
      await work()
    }
    configuration.engineObserver?(.taskMade(.store))
  }

  /// Stores `image` in the memory cache without its encoded bytes, which
  /// the disk cache keeps, unless `access` skips memory-cache writes.
  func keepInMemory(_ image: Image, forKey key: ImageCacheKey, access: TierAccess) {
    guard access.writesMemory else { return }
    var copy = image
    copy.originalData = nil
    configuration.cache.memoryCache.setValue(copy, forKey: key.stringValue, cost: image.byteCount)
  }
}
