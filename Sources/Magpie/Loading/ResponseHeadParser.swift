import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A response head read line by line, as libcurl hands it over: status
/// lines (a `1xx` comes before the real one), field lines and the empty
/// line that ends the head. It keeps what the checks need
/// (``ResponseHead``), the `Location` of a redirect and the raw field lines
/// for the consumer's side, and fails once the head grows past its size
/// limit, before anything proportional to an unbounded head is kept.
///
/// A value with no I/O, so tests and the fuzz harness drive it directly.
package struct ResponseHeadParser: Sendable {
  /// What one line did to the head.
  package enum Step: Sendable, Equatable {
    /// The head goes on (or a `1xx` head ended and the real one follows).
    case needsMore
    /// The empty line after a final (non-`1xx`) head.
    case ended
  }

  /// The most bytes all head lines of one response may take, `1xx` heads
  /// and line ends included (``DataLoaderConfiguration/maximumHeaderSize``).
  package let maximumHeaderSize: Int
  /// The fields the checks need, and the status code.
  package private(set) var head: ResponseHead
  /// The status line's version: "HTTP/1.1", "HTTP/2".
  package private(set) var httpVersion = "HTTP/1.1"
  /// The `Location` field, trimmed.
  package private(set) var location: String?
  /// The field lines, trimmed, joined by LF.
  package private(set) var lines: [UInt8] = []
  /// Bytes of head lines seen, as they arrived.
  package private(set) var byteCount = 0
  /// The `WWW-Authenticate` fields, trimmed (a `401`'s challenges).
  package private(set) var challenges: [String] = []

  /// A parser for the response from `url`.
  package init(url: URL?, maximumHeaderSize: Int) {
    self.maximumHeaderSize = maximumHeaderSize
    head = ResponseHead(url: url, statusCode: 0)
  }

  /// The status code of the last status line; 0 before one.
  package var statusCode: Int { head.statusCode }

  /// Takes one line (with or without its CR LF).
  package mutating func feed(line bytes: UnsafeRawBufferPointer) throws(MagpieError) -> Step {
    byteCount += bytes.count
    guard byteCount <= maximumHeaderSize else { throw Self.headTooLarge(maximumHeaderSize) }
    let line = Self.trimmed(bytes)
    if line.isEmpty {
      return statusCode >= 100 && statusCode < 200 ? .needsMore : .ended
    }
    if line.starts(with: "HTTP/".utf8) {
      startResponse(line)
      return .needsMore
    }
    if !lines.isEmpty { lines.append(0x0A) }
    lines.append(contentsOf: line)
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .needsMore }
    let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
    func value() -> String {
      String(decoding: Self.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...])), as: UTF8.self)
    }
    switch name.count {
    case 14 where Self.named(name, "content-length"): head.contentLength = value()
    case 12 where Self.named(name, "content-type"): head.contentType = value()
    case 16 where Self.named(name, "content-encoding"): head.contentEncoding = value()
    case 16 where Self.named(name, "www-authenticate"): challenges.append(value())
    case 11 where Self.named(name, "retry-after"): head.retryAfter = value()
    case 8 where Self.named(name, "location"): location = value()
    default: break
    }
    return .needsMore
  }

  /// Takes `data` line by line (split after each LF) until a head ends;
  /// bytes after that are left unread.
  package mutating func feed(_ data: Data) throws(MagpieError) -> Step {
    var start = data.startIndex
    while start < data.endIndex {
      let end = data[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? data.endIndex
      var step = Step.needsMore
      var failure: MagpieError?
      data[start..<end].withUnsafeBytes { bytes in
        do throws(MagpieError) { step = try feed(line: bytes) } catch { failure = error }
      }
      if let failure { throw failure }
      if step == .ended { return .ended }
      start = end
    }
    return .needsMore
  }

  /// Checks the size of a head that arrived whole (from URLSession): the
  /// status line and each field as `Name: value` with its CR LF.
  package static func check(_ response: HTTPURLResponse, maximumHeaderSize: Int) throws(MagpieError) {
    var size = "HTTP/1.1 000 \r\n".utf8.count + 2
    for (name, value) in response.allHeaderFields {
      size += "\(name)".utf8.count + "\(value)".utf8.count + 4
    }
    guard size <= maximumHeaderSize else { throw headTooLarge(maximumHeaderSize) }
  }

  /// The error for a head over `limit` bytes.
  private static func headTooLarge(_ limit: Int) -> MagpieError {
    MagpieError(.invalidResponse, "the response head grew past the \(limit)-byte limit (maximumHeaderSize)")
  }

  /// A status line, "HTTP/1.1 200 OK" or "HTTP/2 200", starts a response.
  private mutating func startResponse(_ line: UnsafeRawBufferPointer) {
    let space = line.firstIndex(of: 0x20) ?? line.endIndex
    httpVersion = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<space]), as: UTF8.self)
    var code = 0
    var index = space
    while index < line.endIndex, line[index] == 0x20 { index += 1 }
    while index < line.endIndex, line[index] >= 0x30, line[index] <= 0x39, code < 1000 {
      code = code * 10 + Int(line[index] - 0x30)
      index += 1
    }
    lines.removeAll(keepingCapacity: true)
    head = ResponseHead(url: head.url, statusCode: code)
    location = nil
  }

  /// Whether `name` is `lowercase`, ignoring ASCII case.
  private static func named(_ name: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
    guard name.count == lowercase.utf8CodeUnitCount else { return false }
    let expected = UnsafeRawBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
    for index in 0..<name.count where name[index] | 0x20 != expected[index] { return false }
    return true
  }

  /// `bytes` without leading and trailing spaces, tabs, CR and LF.
  private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
    var start = bytes.startIndex
    var end = bytes.endIndex
    while start < end, isSpace(bytes[start]) { start += 1 }
    while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
  }
}
