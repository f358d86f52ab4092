import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What identical transfers share: the method, the URL and the header
/// fields (names lowercased, in order). Requests with equal keys share
/// one download. Built once per request and hashed as a value, never
/// joined into a string.
struct TransferKey: Hashable, Sendable {
  /// `GET` unless the request says otherwise.
  let method: String
  /// The URL's absolute string.
  let url: String
  /// Each header field's lowercased name and its value, by name.
  let headers: [HeaderField]

  /// One header field of a ``TransferKey``.
  struct HeaderField: Hashable, Sendable {
    let name: String
    let value: String
  }

  /// The key of `request`.
  init(_ request: URLRequest) {
    method = request.httpMethod ?? "GET"
    url = request.url?.absoluteString ?? ""
    headers = (request.allHTTPHeaderFields ?? [:]).map { HeaderField(name: $0.key.lowercased(), value: $0.value) }
      .sorted { $0.name < $1.name }
  }
}
