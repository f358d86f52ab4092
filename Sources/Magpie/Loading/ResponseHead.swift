import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The parts of a response head that ``ResponseValidator`` checks, read
/// once: from an `HTTPURLResponse`, or straight from the header lines as a
/// loader parses them (cheaper than building the response object first).
struct ResponseHead: Sendable {
  var url: URL?
  var statusCode: Int
  var contentLength: String?
  var contentType: String?
  var contentEncoding: String?
  var retryAfter: String?

  init(
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
  init(_ response: HTTPURLResponse) {
    self.init(
      url: response.url, statusCode: response.statusCode,
      contentLength: response.value(forHTTPHeaderField: "Content-Length"),
      contentType: response.value(forHTTPHeaderField: "Content-Type"),
      contentEncoding: response.value(forHTTPHeaderField: "Content-Encoding"),
      retryAfter: response.value(forHTTPHeaderField: "Retry-After"))
  }
}
