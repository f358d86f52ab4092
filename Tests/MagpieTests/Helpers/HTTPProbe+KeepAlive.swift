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
    try await BlockingWork.onThread { try exchanges(port: port, paths: paths, timeout: timeout) }
  }

  private static func exchanges(port: Int, paths: [String], timeout: Duration) throws -> [Answer] {
    let fd = try connection(port: port, timeout: timeout)
    defer { close(fd) }
    var answers: [Answer] = []
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    for path in paths {
      guard send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", on: fd) else {
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
