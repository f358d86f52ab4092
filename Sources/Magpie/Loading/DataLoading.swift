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
}
