import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension HTTPProbe {
  /// `GET` of each of `paths` in turn on one kept-alive connection (the
  /// next request goes out once the answer before it is whole, by its
  /// `Content-Length`); fails when the server closes the connection before
  /// answering them all.
  static func sendKeepingAlive(
    port: Int, paths: [String], timeout: Duration = .seconds(60 * Sanitizer.slowdown)
  ) async throws -> [Answer] {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(with: Result { try exchanges(port: port, paths: paths, timeout: timeout) })
      }.start()
    }
  }

  private static func exchanges(port: Int, paths: [String], timeout: Duration) throws -> [Answer] {
    let fd = try LoopbackSocket.connected(to: port)
    defer { close(fd) }
    var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var answers: [Answer] = []
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    for path in paths {
      let bytes = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
      let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard sent == bytes.count else {
        throw Failure(description: "the server closed the connection after \(answers.count) answer(s)")
      }
      while wholeLength(of: received) == nil {
        let n = recv(fd, &buffer, buffer.count, 0)
        guard n > 0 else {
          throw Failure(description: "the server closed the connection after \(answers.count) answer(s)")
        }
        received.append(contentsOf: buffer[0..<n])
      }
      let length = wholeLength(of: received)!
      answers.append(try parse(Data(received.prefix(length)), method: "GET"))
      received = Data(received.dropFirst(length))
    }
    return answers
  }

  /// The length of the first response in `data` when it has arrived
  /// whole (its head and `Content-Length` bytes of body).
  private static func wholeLength(of data: Data) -> Int? {
    guard let end = data.firstRange(of: Data("\r\n\r\n".utf8)) else { return nil }
    let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).lowercased()
    let field = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
    let length = field.flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    let whole = end.upperBound - data.startIndex + length
    return data.count >= whole ? whole : nil
  }
}
