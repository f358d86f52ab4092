import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ImageManager {
  /// The decode stage for `request` joined (or started) by `job`: fetch,
  /// then decode, shared by every job over the same bytes and decode
  /// options whatever its processors. The fetch's progress and partial
  /// bytes reach `job` while it waits.
  func decoded(
    _ request: ImageRequest, plan: DecodePlan, from sources: FetchSources, job: LoadJob
  ) async throws(MagpieError) -> DecodedImage {
    let keys = job.keys
    let fetchKey = fetchKey(for: request, keys: keys, transfer: keys.transfer, from: sources)
    let observer: @Sendable (StageEvent) -> Void = { [weak self] event in
      switch event {
      case .progress(let received, let expected): job.reportProgress(received: received, expected: expected)
      case .data(let data): self?.decodePartial(data, job: job)
      }
    }
    let key = DecodeKey(fetch: fetchKey, plan: plan.key)
    let subscription = decodes.subscribe(key: key, priority: job.priority, observer: observer) {
      [self] stage throws(MagpieError) in
      let priority = stage.priority
      let fetch = subscribeFetch(for: request, cacheKey: keys.cache, key: fetchKey, priority: priority) {
        stage.send($0)
      }
      return try await decode(plan, fetch: fetch, subscribedAt: priority, stage: stage)
    }
    job.setUpstream { subscription.setPriority($0) }
    defer { job.setUpstream(nil) }
    return try await subscription.value()
  }

  /// The decode stage's work: waits for the bytes, then for a decode slot.
  private func decode(
    _ plan: DecodePlan, fetch: StageSubscription<FetchedData>, subscribedAt: ImageRequest.Priority,
    stage: PipelineStage<DecodedImage>
  ) async throws(MagpieError) -> DecodedImage {
    let fetched = try await stage.awaiting(fetch, subscribedAt: subscribedAt)
    let limiter = decodeLimiter
    let priority = stage.priority
    let clock = ContinuousClock()
    let start = clock.now
    let image = try await limiter.run(
      priority: priority,
      queued: { ticket in stage.onPriorityChange(startedAt: priority) { limiter.setPriority($0, for: ticket) } }
    ) { () throws(MagpieError) in
      try plan.decode(fetched.data)
    }
    stage.onPriorityChange(startedAt: priority, nil)
    return DecodedImage(image: image, fetched: fetched, decodeTime: clock.now - start)
  }

  /// The process stage, one per processor chain: the processors after the
  /// decode, on a processing slot at `job`'s priority.
  func process(
    _ decoded: DecodedImage, plan: DecodePlan, job: LoadJob, metrics: inout ImageTaskMetrics
  ) async throws(MagpieError) -> Image {
    metrics.add(decoded.fetched.metrics)
    metrics.decode += decoded.decodeTime
    var image = decoded.image
    let processors = plan.laterProcessors
    if !processors.isEmpty {
      let clock = ContinuousClock()
      let start = clock.now
      let input = image
      let options = plan.processingOptions
      image = try await job.run(on: processLimiter) { () throws(MagpieError) in
        var current = input
        for processor in processors {
          current = try processor.processNamingFailures(item: .image(current), options: options)
        }
        return current
      }
      metrics.process += clock.now - start
    }
    image.scale = plan.options.scale
    return image
  }

  /// The decode plan for `request` (see ``DecodePlan``).
  func decodePlan(for request: ImageRequest) -> DecodePlan {
    DecodePlan(
      request: request, options: decodeOptions(for: request, keepingOriginal: request.processors.isEmpty),
      registry: configuration.registry)
  }

  /// The manager's decode limits with `request`'s size, mode and scale.
  func decodeOptions(for request: ImageRequest, keepingOriginal: Bool) -> DecodeOptions {
    var options = configuration.decodeLimits
    options.targetSize = request.targetSize
    options.contentMode = request.contentMode
    options.firstFrameOnly = request.options.contains(.onlyLoadFirstFrame)
    options.decodesFramesOnDemand = request.options.contains(.decodeFramesOnDemand)
    options.scale = request.effectiveScale
    options.keepsOriginalData = keepingOriginal
    return options
  }
}
