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
          let image = try await decodeAndProcess(original.data, request: request, metrics: &metrics)
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
    let image = try await decodeAndProcess(data, request: request, metrics: &metrics)
    await store(
      image, data: data, key: key, request: request, storeOriginal: options.contains(.cacheOriginalImage),
      response: response, metrics: &metrics)
    return ImageResult(image: image, cacheType: .none, request: request, data: data, metrics: metrics)
  }

  /// Asks the origin whether the cached image changed: keeps it on 304,
  /// loads and stores the new one otherwise.
  private func revalidate(
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
      let image = try await decodeAndProcess(data, request: request, metrics: &metrics)
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
    let image = try await decodeAndProcess(data, request: request, metrics: &metrics)
    await store(
      image, data: data, key: key, request: request, storeOriginal: false, response: response, metrics: &metrics)
    return ImageResult(image: image, cacheType: .none, request: request, data: data, metrics: metrics)
  }

  /// The source's bytes: downloaded (shared with identical downloads) or
  /// read from the provider.
  private func load(
    _ job: LoadJob, request: ImageRequest, metrics: inout ImageTaskMetrics
  ) async throws(MagpieError) -> (Data, HTTPURLResponse?) {
    let clock = ContinuousClock()
    switch request.source {
    case .provider(let provider):
      let start = clock.now
      let data = try await provider.data()
      metrics.network += clock.now - start
      metrics.bytesLoaded += data.count
      job.reportProgress(received: Int64(data.count), expected: Int64(data.count))
      return (data, nil)
    case .network(let urlRequest):
      let downloader = configuration.downloader
      let progressive = request.options.contains(.progressiveLoad)
      let progress: @Sendable (Int64, Int64?) -> Void = { received, expected in
        job.reportProgress(received: received, expected: expected)
      }
      var partial: (@Sendable (Data) -> Void)?
      if progressive {
        partial = { @Sendable [weak self] data in self?.decodePartial(data, job: job) }
      }
      let onData = partial
      let result: Result<ImageDownloader.Response, MagpieError> = await withTaskCancellationHandler {
        await withCheckedContinuation {
          (continuation: CheckedContinuation<Result<ImageDownloader.Response, MagpieError>, Never>) in
          let handlers = ImageDownloader.Handlers(progress: progress, data: onData) { result in
            continuation.resume(returning: result)
          }
          let token = downloader.download(urlRequest, priority: job.priority, handlers: handlers)
          job.setDownload(token)
        }
      } onCancel: {
        if let token = job.download { downloader.cancel(token) }
      }
      job.setDownload(nil)
      let response = try result.get()
      metrics.queueWait += response.metrics.queueWait
      metrics.network += response.metrics.transfer
      metrics.attempts += response.metrics.attempts
      metrics.bytesLoaded += response.data.count
      return (response.data, response.response)
    }
  }

  /// Decodes (or lets the first processor decode) and runs the processors.
  func decodeAndProcess(
    _ data: Data, request: ImageRequest, metrics: inout ImageTaskMetrics
  ) async throws(MagpieError) -> Image {
    let clock = ContinuousClock()
    let registry = configuration.registry
    let decodeOptions = self.decodeOptions(for: request, keepingOriginal: request.processors.isEmpty)
    let processors = request.processors
    let processingOptions = ImageProcessingOptions(
      registry: registry, decodeOptions: decodeOptions, firstFrameOnly: request.options.contains(.onlyLoadFirstFrame))
    let decodeStart = clock.now
    var image: Image
    if let first = processors.first {
      // The first processor gets the bytes, so it can decode at its own size.
      image = try await decodeLimiter.run { () throws(MagpieError) in
        try first.processNamingFailures(item: .data(data), options: processingOptions)
      }
    } else {
      image = try await decodeLimiter.run { () throws(MagpieError) in try registry.decode(data, options: decodeOptions)
      }
    }
    metrics.decode += clock.now - decodeStart
    if processors.count > 1 {
      let processStart = clock.now
      let rest = Array(processors.dropFirst())
      let input = image
      image = try await processLimiter.run { () throws(MagpieError) in
        var current = input
        for processor in rest {
          current = try processor.processNamingFailures(item: .image(current), options: processingOptions)
        }
        return current
      }
      metrics.process += clock.now - processStart
    }
    image.scale = decodeOptions.scale
    return image
  }

  func decodeOptions(for request: ImageRequest, keepingOriginal: Bool) -> DecodeOptions {
    var options = configuration.decodeLimits
    options.targetSize = request.targetSize
    options.contentMode = request.contentMode
    options.firstFrameOnly = request.options.contains(.onlyLoadFirstFrame)
    options.scale = request.effectiveScale
    options.keepsOriginalData = keepingOriginal
    return options
  }

  /// Stores in memory now, in write-through tiers before delivery and in
  /// write-behind tiers (the disk cache) after it, with the response's
  /// revalidation headers; a failed write goes to
  /// ``Configuration/cacheWriteFailed``. Partial images are not cached.
  private func store(
    _ image: Image, data: Data, key: ImageCacheKey, request: ImageRequest, storeOriginal: Bool,
    response: HTTPURLResponse?, metrics: inout ImageTaskMetrics
  ) async {
    guard !image.isPartial else { return }
    let newValidators = response.flatMap(ValidatorStore.Validators.init)
    validators.setValidators(newValidators, for: key)
    let cache = configuration.cache
    let clock = ContinuousClock()
    let start = clock.now
    keepInMemory(image, forKey: key)
    guard !request.options.contains(.cacheMemoryOnly), !cache.tiers.isEmpty else {
      metrics.cacheWrite += clock.now - start
      return
    }
    let failed = configuration.cacheWriteFailed
    let metadata = newValidators?.encoded
    await cache.storeInTiers(
      image, original: data, forKey: key, metadata: metadata, alsoOriginal: storeOriginal, mode: .writeThrough,
      failed: failed)
    metrics.cacheWrite += clock.now - start
    writeBehind {
      await cache.storeInTiers(
        image, original: data, forKey: key, metadata: metadata, alsoOriginal: storeOriginal, mode: .writeBehind,
        failed: failed)
    }
  }

  /// Runs `work` after delivery, counted by ``waitForPendingWrites()``.
  private func writeBehind(_ work: @escaping @Sendable () async -> Void) {
    beginWrite()
    Task.detached { [self] in
      defer { endWrite() }
      await work()
    }
  }

  /// Stores `image` in the memory cache without its encoded bytes, which
  /// the disk cache keeps.
  private func keepInMemory(_ image: Image, forKey key: ImageCacheKey) {
    var copy = image
    copy.originalData = nil
    configuration.cache.memoryCache.setValue(copy, forKey: key.stringValue, cost: image.byteCount)
  }

  /// Decodes what has arrived of a progressive JPEG, when a new scan is in,
  /// and hands the partial image to the job's subscribers.
  func decodePartial(_ data: Data, job: LoadJob) {
    let ready = data.withUnsafeBytes { job.shouldDecodePartial($0) }
    guard ready else { return }
    let request = job.request
    let registry = configuration.registry
    var options = decodeOptions(for: request, keepingOriginal: false)
    options.allowsPartialImage = true
    options.firstFrameOnly = true
    Task.detached { [self] in
      // Partial passes are previews: decode them small unless the request
      // already names a size.
      if options.targetSize == nil, let info = try? registry.info(of: data) {
        options.targetSize = PixelSize(width: max(1, info.size.width / 4), height: max(1, info.size.height / 4))
      }
      let decodeOptions = options
      var image = try? await decodeLimiter.run { () throws(MagpieError) in
        try registry.decode(data, options: decodeOptions)
      }
      if var partial = image {
        partial.isPartial = true
        for processor in request.processors {
          // A preview a processor cannot handle stops there: the final
          // decode reports the failure, not a partial pass.
          guard
            let next = try? processor.process(
              item: .image(partial), options: ImageProcessingOptions(registry: registry))
          else { break }
          partial = next
        }
        partial.isPartial = true
        image = partial
      }
      job.deliverPartial(image)
    }
  }
}
