import Foundation
import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension FuzzHarness {
  /// The loaders' response-head parser (`ResponseHeadParser`, fed line by
  /// line as libcurl hands them over), then the checks every loader makes
  /// on the head it produced and on the bytes after it as a body
  /// (`ResponseValidator`), and the `Retry-After` reader.
  static let httpHead = FuzzHarness(
    name: "http-head",
    seedTexts: [
      "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 8\r\n\r\n\u{89}PNG\r\n\u{1A}\n",
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nGIF",
      "HTTP/2 302\r\nlocation: /next.png\r\ncontent-length: 0\r\n\r\n",
      "HTTP/1.1 503 Service Unavailable\r\nRetry-After: Wed, 21 Oct 2015 07:28:00 GMT\r\n\r\n",
      "HTTP/1.1 429 Too Many\r\nRetry-After: 120\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Type: text/html\r\n\r\n<html>",
      "HTTP/1.1 304 Not Modified\r\nETag: \"abc\"\r\n\r\n",
    ],
    maxLength: 8 << 10
  ) { data in
    let url = URL(string: "http://127.0.0.1/fuzz.png")
    var parser = ResponseHeadParser(url: url, maximumHeaderSize: 4 << 10)
    guard (try? parser.feed(data)) == .ended else { return }
    if let retryAfter = parser.head.retryAfter { _ = RetryAfter.parse(retryAfter) }
    var configuration = DataLoaderConfiguration()
    configuration.maximumBodySize = 16 << 10
    var validator = ResponseValidator(request: URLRequest(url: url!), configuration: configuration)
    do {
      try validator.accept(parser.head)
      // The rest of the input after the head is the body, in two chunks.
      let body = data.suffix(max(0, data.count - parser.byteCount))
      let half = body.startIndex + body.count / 2
      _ = try validator.accept(Data(body[..<half]))
      _ = try validator.accept(Data(body[half...]))
      _ = try validator.finish()
    } catch {}
  }
}
