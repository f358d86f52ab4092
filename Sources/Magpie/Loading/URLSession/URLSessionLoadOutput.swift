import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where one ``URLSessionTransfer``'s events go: the stream that
/// ``URLSessionDataLoader/load(_:)`` returns, or, for a load queued by
/// ``URLSessionDataLoader/enqueueLoad(of:in:progress:completion:)``, a body
/// sink and an end called on the session's delegate queue, with no task
/// reading in between.
struct URLSessionLoadOutput: Sendable {
  private let yieldEvent: @Sendable (DataLoadingEvent) -> Void
  private let end: @Sendable (MagpieError?) -> Void

  /// Events into `continuation`'s stream.
  init(stream continuation: AsyncThrowingStream<DataLoadingEvent, any Error>.Continuation) {
    yieldEvent = { continuation.yield($0) }
    end = { error in
      if let error { continuation.finish(throwing: error) } else { continuation.finish() }
    }
  }

  /// Events to `yield`; the end (an error, or `nil` when clean) to `end`.
  init(yield: @escaping @Sendable (DataLoadingEvent) -> Void, end: @escaping @Sendable (MagpieError?) -> Void) {
    yieldEvent = yield
    self.end = end
  }

  func yield(_ event: DataLoadingEvent) { yieldEvent(event) }

  func finish() { end(nil) }

  func finish(throwing error: MagpieError) { end(error) }
}
