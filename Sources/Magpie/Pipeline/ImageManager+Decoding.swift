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
    let key = DecodeKey(fetch: fetchKey, plan: plan.key)
    let subscription = decodes.subscribe(
      key: key, priority: job.priority, observer: .sink(job, passesData: true), wantsData: false, completion: nil
    ) { [self] stage in
      // No task: the fetch's end queues the decode, the decode's end
      // completes the stage.
      stage.start(driving: { stage in
        QueuedDecode(plan: plan, limiter: decodeLimiter, stage: stage).begin { priority, completion in
          subscribeFetch(
            for: request, keys: keys, key: fetchKey, priority: priority,
            observer: .sink(stage, passesData: true), completion: completion)
        }
      })
    }
    job.wait(on: .stage(subscription))
    defer { job.wait(on: nil) }
    return try await subscription.value()
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
    options.posterTime = request.posterTime
    options.firstFrameOnly = request.options.contains(.onlyLoadFirstFrame)
    options.decodesFramesOnDemand = request.options.contains(.decodeFramesOnDemand)
    options.scale = request.effectiveScale
    options.keepsOriginalData = keepingOriginal
    return options
  }
}
