import Foundation
import Magpie

extension FaultOrigin {
  func answer(
    _ head: FaultSocket.Head, route: FaultRoute?, servedBefore: Int, on socket: FaultSocket
  ) -> Outcome {
    func sent(_ ok: Bool) -> Outcome { ok ? .keepAlive : .clientClosed }
    func okResponse(_ body: Data, contentType: String, etag: String?) -> Data {
      if let etag, head.headers["if-none-match"] == etag {
        return Data("HTTP/1.1 304 Not Modified\r\nETag: \(etag)\r\nContent-Length: 0\r\n\r\n".utf8)
      }
      var text = "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
      if let etag { text += "ETag: \(etag)\r\n" }
      return Data((text + "\r\n").utf8) + (head.method == "HEAD" ? Data() : body)
    }
    guard let route else {
      return sent(socket.write("HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found"))
    }
    switch route {
    case .ok(let body, let contentType, let etag):
      return sent(socket.write(okResponse(body, contentType: contentType, etag: etag)))
    case .stall:
      return socket.waitForClose(milliseconds: nil) ? .clientClosed : .closedByOrigin
    case .stallMidBody(let body, let count):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(body.count)\r\n\r\n"
      guard socket.write(head), socket.write(body.prefix(count)) else { return .clientClosed }
      return socket.waitForClose(milliseconds: nil) ? .clientClosed : .closedByOrigin
    case .delayHeaders(let delay, let body):
      if socket.waitForClose(milliseconds: delay.wholeMilliseconds) { return .clientClosed }
      return sent(socket.write(okResponse(body, contentType: "image/png", etag: nil)))
    case .dropMidBody(let body, let count):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(body.count)\r\n\r\n"
      guard socket.write(head), socket.write(body.prefix(count)) else { return .clientClosed }
      socket.reset()
      return .closedByOrigin
    case .shortBody(let body, let declared):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(declared)\r\n\r\n"
      guard socket.write(head), socket.write(body) else { return .clientClosed }
      socket.finish()
      return .closedByOrigin
    case .endless(let prefix):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nConnection: close\r\n\r\n"
      guard socket.write(head), socket.write(prefix) else { return .clientClosed }
      let zeros = Data(count: 64 * 1024)
      while socket.write(zeros) {}
      return state.withLock(\.stopped) ? .closedByOrigin : .clientClosed
    case .redirect(let status, let location):
      return sent(
        socket.write("HTTP/1.1 \(status) Redirect\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n"))
    case .status(let status, let headers, let body):
      var text = "HTTP/1.1 \(status) Status\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n"
      for (name, value) in headers { text += "\(name): \(value)\r\n" }
      return sent(socket.write(text + "\r\n" + body))
    case .failing(let times, let status, let retryAfter, let body):
      guard servedBefore < times else {
        return sent(socket.write(okResponse(body, contentType: "image/png", etag: nil)))
      }
      var text = "HTTP/1.1 \(status) Unavailable\r\nContent-Length: 0\r\n"
      if let retryAfter { text += "Retry-After: \(retryAfter)\r\n" }
      return sent(socket.write(text + "\r\n"))
    case .slowloris(let body, let interval):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(body.count)\r\n\r\n"
      guard socket.write(head) else { return .clientClosed }
      for byte in body {
        guard socket.write(Data([byte])) else { return .clientClosed }
        if socket.waitForClose(milliseconds: interval.wholeMilliseconds) { return .clientClosed }
      }
      return .keepAlive
    case .slowHead(let body, let interval):
      let response = okResponse(body, contentType: "image/png", etag: nil)
      for byte in response {
        guard socket.write(Data([byte])) else { return .clientClosed }
        if socket.waitForClose(milliseconds: interval.wholeMilliseconds) { return .clientClosed }
      }
      return .keepAlive
    case .chunked(let body, let pieces, let trailer):
      var head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n"
      if trailer { head += "Trailer: X-Checksum\r\n" }
      var response = Data((head + "\r\n").utf8)
      let size = (body.count + pieces - 1) / max(1, pieces)
      var offset = body.startIndex
      while offset < body.endIndex {
        let piece = body[offset..<min(offset + size, body.endIndex)]
        response += Data((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Data("\r\n".utf8)
        offset += piece.count
      }
      response += Data(("0\r\n" + (trailer ? "X-Checksum: abc123\r\n" : "") + "\r\n").utf8)
      return sent(socket.write(response))
    case .html(let page):
      let body = Data(page.utf8)
      return sent(socket.write(okResponse(body, contentType: "text/html; charset=utf-8", etag: nil)))
    case .hugeHead, .bomb, .endlessChunked, .longBody:
      return answerHostile(route, on: socket)
    case .digest(let realm, let user, let password, let body):
      return answerDigest(head, realm: realm, user: user, password: password, body: body, on: socket)
    case .resumable(let body, let etag, let cutAt, let changed):
      return answerRanges(
        head, body: body, etag: etag, cutAt: cutAt, changed: changed, first: servedBefore == 0, on: socket)
    }
  }
}
