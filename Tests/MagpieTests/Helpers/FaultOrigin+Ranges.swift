import Foundation

extension FaultOrigin {
  /// Answers a ``FaultRoute/resumable(_:etag:cutAt:changedTo:)`` route.
  func answerRanges(
    _ head: FaultSocket.Head, body: Data, etag: String, cutAt: Int, changed: Data?, first: Bool,
    on socket: FaultSocket
  ) -> Outcome {
    let fields = "Content-Type: image/png\r\nAccept-Ranges: bytes\r\n"
    if first {
      let text = "HTTP/1.1 200 OK\r\n\(fields)ETag: \(etag)\r\nContent-Length: \(body.count)\r\n\r\n"
      guard socket.write(text), socket.write(body.prefix(cutAt)) else { return .clientClosed }
      // A clean close (FIN), not a reset: every byte sent arrives, so the
      // resume's range starts at `cutAt` exactly.
      socket.finish()
      return .closedByOrigin
    }
    let served = changed ?? body
    let servedETag = changed == nil ? etag : "\"changed-\(etag.filter { $0 != "\"" })\""
    if let range = head.headers["range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
      let start = Int(range.dropFirst(6).dropLast()), start < served.count,
      head.headers["if-range"] == servedETag
    {
      let rest = served[(served.startIndex + start)...]
      let text =
        "HTTP/1.1 206 Partial Content\r\n\(fields)ETag: \(servedETag)\r\n"
        + "Content-Range: bytes \(start)-\(served.count - 1)/\(served.count)\r\nContent-Length: \(rest.count)\r\n\r\n"
      return socket.write(Data(text.utf8) + rest) ? .keepAlive : .clientClosed
    }
    let text = "HTTP/1.1 200 OK\r\n\(fields)ETag: \(servedETag)\r\nContent-Length: \(served.count)\r\n\r\n"
    return socket.write(Data(text.utf8) + served) ? .keepAlive : .clientClosed
  }
}
