import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension CurlActiveTransfer {
  // MARK: Callbacks (libcurl thread)

  /// One header line (libcurl passes whole lines). Returns `false` to
  /// abort the transfer.
  ///
  /// This runs on the thread that serves every transfer, so it does the
  /// least it can: the raw lines are kept as bytes for the consumer's side
  /// to turn into header fields, and only the fields the checks need
  /// become strings here.
  func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !transfer.isCancelled else { return false }
    deadline.touch()
    guard !headDelivered else { return true }
    let line = Self.trimmed(bytes)
    if line.isEmpty {
      return statusCode >= 100 && statusCode < 200 ? true : headEnded()
    }
    if line.starts(with: "HTTP/".utf8) {
      // A status line starts a response (a 1xx comes before the real one):
      // "HTTP/1.1 200 OK", "HTTP/2 200".
      let space = line.firstIndex(of: 0x20) ?? line.endIndex
      httpVersion = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<space]), as: UTF8.self)
      var code = 0
      var index = space
      while index < line.endIndex, line[index] == 0x20 { index += 1 }
      while index < line.endIndex, line[index] >= 0x30, line[index] <= 0x39, code < 1000 {
        code = code * 10 + Int(line[index] - 0x30)
        index += 1
      }
      statusCode = code
      headLines.removeAll(keepingCapacity: true)
      head = ResponseHead(url: url, statusCode: code)
      location = nil
      return true
    }
    if !headLines.isEmpty { headLines.append(0x0A) }
    headLines.append(contentsOf: line)
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return true }
    let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
    func value() -> String {
      String(decoding: Self.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...])), as: UTF8.self)
    }
    switch name.count {
    case 14 where Self.named(name, "content-length"): head.contentLength = value()
    case 12 where Self.named(name, "content-type"): head.contentType = value()
    case 16 where Self.named(name, "content-encoding"): head.contentEncoding = value()
    case 11 where Self.named(name, "retry-after"): head.retryAfter = value()
    case 8 where Self.named(name, "location"): location = value()
    default: break
    }
    return true
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

  private func headEnded() -> Bool {
    if RedirectRules.isRedirect(statusCode) && transfer.configuration.maximumRedirects > 0, let location {
      let response = HTTPURLResponse(
        url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: ["Location": location])
      switch response.flatMap({ RedirectRules.nextRequest(after: $0, to: request) }) {
      case .success(let next)?:
        redirectTarget = next
        redirectResponse = response
        return true
      case .failure(let error)?:
        failure = error
        return false
      case nil:
        break
      }
    }
    do throws(MagpieError) {
      try validator.accept(head)
      deliver(.head(url: url, statusCode: statusCode, httpVersion: httpVersion, lines: headLines))
      headDelivered = true
      return true
    } catch {
      failure = error
      return false
    }
  }

  /// Body bytes. Returns `false` to abort the transfer.
  func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !transfer.isCancelled, failure == nil else { return false }
    deadline.touch()
    if redirectTarget != nil {
      // A redirect's own body is dropped, but not without limit.
      redirectBodyBytes += bytes.count
      if redirectBodyBytes > 1 << 20 {
        failure = MagpieError(.invalidResponse, "a redirect from \(request.url?.absoluteString ?? "?") sent over 1 MB")
        return false
      }
      return true
    }
    do throws(MagpieError) {
      // Small chunks are plain copies; large ones use pooled buffers.
      let chunk = bytes.count >= 16 * 1024 ? loop.chunkBuffers.data(copying: bytes) : Data(bytes)
      if case .data(let data, let received, let expected)? = try validator.accept(chunk) {
        deliver(.data(data, received: received, expected: expected))
      }
      return true
    } catch {
      failure = error
      return false
    }
  }
}
