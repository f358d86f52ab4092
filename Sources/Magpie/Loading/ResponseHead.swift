import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The parts of a response head that ``ResponseValidator`` checks, read
/// once: from an `HTTPURLResponse`, or straight from the header lines as a
/// loader parses them (cheaper than building the response object first).
package struct ResponseHead: Sendable {
  /// The URL that answered.
  package var url: URL?
  /// The status code.
  package var statusCode: Int
  /// The `Content-Length` field, as sent.
  package var contentLength: String?
  /// The `Content-Type` field, as sent.
  package var contentType: String?
  /// The `Content-Encoding` field, as sent.
  package var contentEncoding: String?
  /// The `Retry-After` field, as sent.
  package var retryAfter: String?

  /// A head with these fields.
  package init(
    url: URL?, statusCode: Int, contentLength: String? = nil, contentType: String? = nil,
    contentEncoding: String? = nil, retryAfter: String? = nil
  ) {
    self.url = url
    self.statusCode = statusCode
    self.contentLength = contentLength
    self.contentType = contentType
    self.contentEncoding = contentEncoding
    self.retryAfter = retryAfter
  }

  /// The head of `response`.
  package init(_ response: HTTPURLResponse) {
    self.init(
      url: response.url, statusCode: response.statusCode,
      contentLength: response.value(forHTTPHeaderField: "Content-Length"),
      contentType: response.value(forHTTPHeaderField: "Content-Type"),
      contentEncoding: response.value(forHTTPHeaderField: "Content-Encoding"),
      retryAfter: response.value(forHTTPHeaderField: "Retry-After"))
  }
}
