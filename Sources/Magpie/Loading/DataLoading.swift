import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Fetches the bytes of a URL request as a stream of events: the response,
/// then the body in chunks with progress. Nuke's DataLoading, async.
///
/// Cancel by cancelling the task that iterates the stream (or by dropping
/// the stream): the transfer must stop and its connection close. The
/// stream ends with a ``MagpieError``: ``MagpieError/Code/network``,
/// ``MagpieError/Code/timedOut``, ``MagpieError/Code/httpStatus`` (with
/// ``MagpieError/statusCode`` and, for 429/503, ``MagpieError/retryAfter``),
/// ``MagpieError/Code/invalidResponse`` or ``MagpieError/Code/cancelled``.
/// A `304 Not Modified` answer to a conditional request is not an error: it
/// arrives as a ``DataLoadingEvent/response(_:)`` with no body.
public protocol DataLoading: Sendable {
  /// Starts loading `request`.
  func load(_ request: URLRequest) -> AsyncThrowingStream<DataLoadingEvent, any Error>

  /// Loads `request`'s whole body, with the final response: for callers
  /// that want no partial data, as `URLSession.data(for:)`. The same
  /// checks and errors as ``load(_:)``; cancel by cancelling the calling
  /// task. `progress`, when given, is called on the calling task with the
  /// bytes received so far and the announced total, at the end and, for a
  /// long body, on the way (``CurlDataLoader``: at most 20 times a
  /// second). The default reads ``load(_:)``; ``CurlDataLoader`` collects
  /// the body on its own thread and wakes the caller once for a short one.
  func data(
    for request: URLRequest, progress: ((_ received: Int64, _ expected: Int64?) -> Void)?
  ) async throws(MagpieError) -> (Data, HTTPURLResponse)
}

extension DataLoading {
  /// Reads ``load(_:)`` to the end; see ``DataLoading/data(for:progress:)``.
  public func data(
    for request: URLRequest, progress: ((_ received: Int64, _ expected: Int64?) -> Void)?
  ) async throws(MagpieError) -> (Data, HTTPURLResponse) {
    var iterator = load(request).makeAsyncIterator()
    return try await DataLoadingEvents.collect(
      { try await iterator.next() }, onData: DataLoadingEvents.reporting(progress))
  }

  /// The whole body and the final response, without progress; see
  /// ``DataLoading/data(for:progress:)``.
  public func data(for request: URLRequest) async throws(MagpieError) -> (Data, HTTPURLResponse) {
    try await data(for: request, progress: nil)
  }
}
