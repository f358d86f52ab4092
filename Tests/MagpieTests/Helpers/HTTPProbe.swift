import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A plain HTTP/1.1 client for tests of Magpie's own servers: one request
/// on its own connection (`Connection: close`), the status, header fields
/// and body back, redirects not followed. Blocking socket calls on a
/// thread of its own: independent of URLSession, whose shared machinery
/// other tests load, of the cooperative threads, and of dispatch's pool
/// (which the code under test uses, and which grows only slowly when its
/// threads block).
enum HTTPProbe {
  /// What came back.
  struct Answer: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    /// A header's value by name, any case.
    func header(_ name: String) -> String? {
      headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
  }

  /// Why a request got no answer.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// `method` of `http://127.0.0.1:PORT` + `path` with `headers`; fails
  /// when nothing answers within `timeout`.
  static func send(
    port: Int, path: String, method: String = "GET", headers: [String: String] = [:],
    timeout: Duration = .seconds(60 * Sanitizer.slowdown)
  ) async throws -> Answer {
    try await BlockingWork.onThread {
      try exchange(port: port, path: path, method: method, headers: headers, timeout: timeout)
    }
  }

  /// A connection to `port` whose sends and receives give up after
  /// `timeout`; the caller closes it.
  static func connection(port: Int, timeout: Duration) throws -> Int32 {
    let fd = try LoopbackSocket.connected(to: port)
    var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    return fd
  }

  /// Sends all of `text` on `fd`; false when the connection failed first.
  static func send(_ text: String, on fd: Int32) -> Bool {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard n > 0 else { return false }
      sent += n
    }
    return true
  }

  private static func exchange(
    port: Int, path: String, method: String, headers: [String: String], timeout: Duration
  ) throws -> Answer {
    let fd = try connection(port: port, timeout: timeout)
    defer { close(fd) }
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    guard send(head + "\r\n", on: fd) else { throw Failure(description: "send failed") }
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = recv(fd, &buffer, buffer.count, 0)
      if n == 0 { break }
      guard n > 0 else {
        if received.isEmpty { throw Failure(description: "no answer from port \(port) (errno \(errno))") }
        break
      }
      received.append(contentsOf: buffer[0..<n])
    }
    return try parse(received, method: method)
  }

  static func parse(_ data: Data, method: String) throws -> Answer {
    guard let end = data.firstRange(of: Data("\r\n\r\n".utf8)) else {
      throw Failure(description: "no complete response head in \(data.count) bytes")
    }
    let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
      throw Failure(description: "bad status line '\(lines[0])'")
    }
    var fields: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var body = Data(data[end.upperBound...])
    if let length = fields.first(where: { $0.key.lowercased() == "content-length" }).flatMap({ Int($0.value) }),
      method != "HEAD", body.count > length
    {
      body = body.prefix(length)
    }
    if method == "HEAD" { body = Data() }
    return Answer(status: status, headers: fields, body: body)
  }
}
