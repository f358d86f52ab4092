import Foundation

extension FaultOrigin {
  /// The answers of the hostile-origin catalogue that send without end or
  /// break the framing: heads, bombs and lengths.
  func answerHostile(_ route: FaultRoute, on socket: FaultSocket) -> Outcome {
    func untilClientLeaves(_ piece: Data) -> Outcome {
      while socket.write(piece) {}
      return state.withLock(\.stopped) ? .closedByOrigin : .clientClosed
    }
    switch route {
    case .hugeHead(let fieldBytes, let body):
      var head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(body.count)\r\n"
      let filler = String(repeating: "f", count: 1000)
      for index in 0..<max(1, fieldBytes / 1014) { head += "X-Filler-\(index): \(filler)\r\n" }
      return socket.write(Data((head + "\r\n").utf8) + body) ? .keepAlive : .clientClosed
    case .bomb(let encoding):
      let head =
        "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Encoding: \(encoding)\r\nConnection: close\r\n\r\n"
      guard socket.write(Data(head.utf8) + DeflateBomb.start(gzip: encoding == "gzip")) else { return .clientClosed }
      return untilClientLeaves(DeflateBomb.segment)
    case .endlessChunked(let prefix):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n"
      let first = Data((String(prefix.count, radix: 16) + "\r\n").utf8) + prefix + Data("\r\n".utf8)
      guard socket.write(Data(head.utf8) + first) else { return .clientClosed }
      return untilClientLeaves(Data("10000\r\n".utf8) + Data(count: 0x10000) + Data("\r\n".utf8))
    case .longBody(let body, let declared):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(declared)\r\n\r\n"
      guard socket.write(Data(head.utf8) + body) else { return .clientClosed }
      socket.finish()
      return .closedByOrigin
    default:
      return .closedByOrigin
    }
  }
}
