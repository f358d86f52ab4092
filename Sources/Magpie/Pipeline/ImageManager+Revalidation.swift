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
    let key = job.keys.cache
    let plan = decodePlan(for: request)
    let fromSource = FetchSources(cache: false, source: true)
    let decoded: DecodedImage
    if case .network(var urlRequest) = request.source, let validators = await validators.validators(for: key) {
      validators.apply(to: &urlRequest)
      var conditional = request
      conditional.source = .network(urlRequest)
      // Its own fetch: a 304 has no body to decode.
      let fetched = try await fetch(conditional, from: fromSource, job: job)
      if let notModified = fetched.response, notModified.statusCode == 304 {
        metrics.add(fetched.metrics)
        metrics.revalidated = true
        // The 304's headers refresh the entry's lifetime (for this
        // process: the tiers keep the rules they were stored with).
        let policy = cachePolicy(for: request, response: notModified)
        let newer = ValidatorStore.Validators(notModified, policy: policy)
        self.validators.setValidators(validators.refreshed(by: newer), for: key)
        if cacheType != .memory {
          keepInMemory(cached, forKey: key, access: job.keys.access)
        }
        return ImageResult(image: cached, cacheType: cacheType, request: request, data: nil, metrics: metrics)
      }
      decoded = try await decode(fetched, plan: plan, job: job)
    } else {
      // Nothing to ask with (a provider, or no validators): load afresh.
      decoded = try await self.decoded(request, plan: plan, from: fromSource, job: job)
    }
    let image = try await process(decoded, plan: plan, job: job, metrics: &metrics)
    let data = decoded.fetched.data
    await store(
      image, data: data, keys: job.keys, request: request, storeOriginal: image.isProcessedAnimation,
      response: decoded.fetched.response,
      metrics: &metrics)
    return ImageResult(image: image, cacheType: .none, request: request, data: data, metrics: metrics)
  }

  /// `request`'s bytes through a fetch stage of `job`'s own, with the
  /// fetch's progress reported to `job`.
  private func fetch(
    _ request: ImageRequest, from sources: FetchSources, job: LoadJob
  ) async throws(MagpieError) -> FetchedData {
    var transfer: TransferKey?
    if case .network(let urlRequest) = request.source { transfer = TransferKey(job.keys.hooks.prepared(urlRequest)) }
    let key = fetchKey(for: request, keys: job.keys, transfer: transfer, from: sources)
    let subscription = subscribeFetch(
      for: request, keys: job.keys, key: key, priority: job.priority,
      observer: .sink(job, passesData: false))
    job.wait(on: .stage(subscription))
    defer { job.wait(on: nil) }
    return try await subscription.value()
  }

  /// Decodes bytes `job` fetched on its own, on a decode slot at its
  /// priority.
  private func decode(_ fetched: FetchedData, plan: DecodePlan, job: LoadJob) async throws(MagpieError) -> DecodedImage
  {
    let clock = ContinuousClock()
    let start = clock.now
    let image = try await job.run(on: decodeLimiter) { () throws(MagpieError) in try plan.decode(fetched.data) }
    return DecodedImage(image: image, fetched: fetched, decodeTime: clock.now - start)
  }
}
