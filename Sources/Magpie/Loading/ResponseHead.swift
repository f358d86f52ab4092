import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The parts of a response head that ``ResponseValidator`` checks, read
/// once: from an `HTTPURLResponse`, or straight from the header lines a
/// loader parsed (cheaper than building the response object first).
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

  /// The head of a response given as header lines (names in any case).
  init(url: URL?, statusCode: Int, fields: [(String, String)]) {
    self.init(url: url, statusCode: statusCode)
    for (name, value) in fields {
      // Cheap length test first: most fields are none of these.
      switch name.utf8.count {
      case 14 where name.lowercased() == "content-length": contentLength = value
      case 12 where name.lowercased() == "content-type": contentType = value
      case 16 where name.lowercased() == "content-encoding": contentEncoding = value
      case 11 where name.lowercased() == "retry-after": retryAfter = value
      default: break
      }
    }
  }
}
