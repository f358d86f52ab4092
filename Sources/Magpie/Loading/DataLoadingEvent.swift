import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a ``DataLoading`` stream delivers, in order: one `response`, then
/// zero or more `data` chunks.
public enum DataLoadingEvent: Sendable {
  /// The final response, after redirects.
  case response(HTTPURLResponse)
  /// A chunk of the body, with the bytes received so far and the total the
  /// server announced (`nil` when it sent no usable Content-Length).
  case data(Data, received: Int64, expected: Int64?)
}
