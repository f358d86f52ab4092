import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ImageManager {
  /// The source's bytes: downloaded (shared with identical downloads) or
  /// read from the provider.
  func load(
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
}
