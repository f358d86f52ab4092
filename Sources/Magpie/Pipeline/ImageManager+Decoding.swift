import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ImageManager {
  /// Decodes (or lets the first processor decode) and runs the processors,
  /// each stage waiting for a slot at `job`'s priority.
  func decodeAndProcess(
    _ data: Data, request: ImageRequest, job: LoadJob, metrics: inout ImageTaskMetrics
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
      image = try await run(on: decodeLimiter, for: job) { () throws(MagpieError) in
        try first.processNamingFailures(item: .data(data), options: processingOptions)
      }
    } else {
      image = try await run(on: decodeLimiter, for: job) { () throws(MagpieError) in
        try registry.decode(data, options: decodeOptions)
      }
    }
    metrics.decode += clock.now - decodeStart
    if processors.count > 1 {
      let processStart = clock.now
      let rest = Array(processors.dropFirst())
      let input = image
      image = try await run(on: processLimiter, for: job) { () throws(MagpieError) in
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

  /// `work` on `limiter` at `job`'s priority, its ticket on the job while
  /// it waits.
  private func run<T: Sendable>(
    on limiter: WorkLimiter, for job: LoadJob, _ work: @escaping @Sendable () throws(MagpieError) -> T
  ) async throws(MagpieError) -> T {
    defer { job.setQueuedWork(nil) }
    return try await limiter.run(priority: job.priority, queued: { job.setQueuedWork((limiter, $0)) }, work)
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
