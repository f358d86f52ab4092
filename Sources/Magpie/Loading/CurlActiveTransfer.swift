import CCurl
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A load while the libcurl thread works on it: its easy handle, the
/// response head being parsed, the checks, deadlines and redirects. Only
/// that thread touches it; libcurl's callbacks reach it through the
/// userdata pointer (unretained: the loop's table keeps it alive while its
/// handle can call back).
final class CurlActiveTransfer {
  /// Receive buffer per transfer: large chunks mean few callbacks and
  /// few stream events.
  static let bufferSize = 100 * 1024

  let transfer: CurlTransfer
  /// The easy handle, while the transfer has one.
  var easy: UnsafeMutableRawPointer?
  /// Whether the easy handle is in the multi handle now.
  var isRunning = false
  /// The request of the current hop.
  private(set) var request: URLRequest
  /// The first request, after modifiers.
  let original: URLRequest
  var validator: ResponseValidator
  var deadline: TransferDeadline
  var redirects = 0
  /// Set while a redirect handler decides.
  var awaitsRedirectDecision = false
  /// Events not yet yielded: the loop yields them together after each
  /// round of libcurl work, so a waiting consumer is woken once for a
  /// response head, its body and its end rather than once for each.
  private var pending: [CurlEvent] = []
  private unowned let loop: CurlLoop

  // The current hop.
  private var headerList: UnsafeMutablePointer<curl_slist>?
  private let errorBuffer: UnsafeMutablePointer<CChar>
  private var statusCode = 0
  private var httpVersion = "HTTP/1.1"
  /// The current hop's URL.
  private var url: URL
  /// The response head's field lines, trimmed, joined by LF.
  private var headLines: [UInt8] = []
  /// What the checks need from the head.
  private var head: ResponseHead
  private var location: String?
  /// Set once the final head is delivered: later header lines are
  /// trailers of a chunked body, not a new head.
  private var headDelivered = false
  /// The next request, when this hop's response is a redirect to follow.
  private(set) var redirectTarget: URLRequest?
  /// The redirect response of this hop, when there is one.
  private(set) var redirectResponse: HTTPURLResponse?
  private var redirectBodyBytes = 0
  /// The error a callback hit; the callback then aborted the transfer.
  private(set) var failure: MagpieError?

  init(transfer: CurlTransfer, request: URLRequest, loop: CurlLoop) {
    self.transfer = transfer
    self.loop = loop
    self.request = request
    original = request
    url = request.url ?? URL(fileURLWithPath: "/")
    head = ResponseHead(url: url, statusCode: 0)
    validator = ResponseValidator(request: request, configuration: transfer.configuration)
    deadline = TransferDeadline(
      idle: transfer.configuration.idleTimeout(for: request), total: transfer.configuration.resourceTimeout)
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
  }

  deinit {
    if let headerList { curl_slist_free_all(headerList) }
    errorBuffer.deallocate()
  }

  /// Queues `event` for the next ``flush()``.
  func deliver(_ event: CurlEvent) {
    if pending.isEmpty { loop.needsFlush(self) }
    pending.append(event)
  }

  /// Yields the queued events, as one element: one wake-up of a waiting
  /// consumer per round, however many events the round produced.
  func flush() {
    guard !pending.isEmpty else { return }
    transfer.continuation.yield(pending)
    pending.removeAll(keepingCapacity: true)
  }

  /// libcurl's message for the last failure, or "".
  var errorDetail: String { String(cString: errorBuffer) }

  // MARK: Configuring a hop

  /// Points `easy` (fresh or used before) at `request` and this
  /// transfer's callbacks. Returns why it could not.
  func configure(_ easy: UnsafeMutableRawPointer, for request: URLRequest) -> MagpieError? {
    self.request = request
    self.easy = easy
    statusCode = 0
    headLines = []
    headDelivered = false
    redirectTarget = nil
    redirectResponse = nil
    redirectBodyBytes = 0
    errorBuffer[0] = 0
    guard let url = request.url else { return MagpieError(.invalidArgument, "the request has no URL") }
    self.url = url
    let configuration = transfer.configuration
    let context = Unmanaged.passUnretained(self).toOpaque()
    var code = CURLE_OK
    func set(_ result: CURLcode) { if code == CURLE_OK { code = result } }
    set(magpie_curl_setopt_string(easy, CURLOPT_URL, url.absoluteString))
    set(magpie_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
    set(magpie_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
    set(magpie_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0))
    set(magpie_curl_setopt_long(easy, CURLOPT_BUFFERSIZE, Self.bufferSize))
    set(magpie_curl_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1))
    set(magpie_curl_setopt_long(easy, CURLOPT_PIPEWAIT, 1))
    set(magpie_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer))
    set(magpie_curl_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, curlBodyCallback))
    set(magpie_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context))
    set(magpie_curl_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback))
    set(magpie_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context))
    let idle = configuration.idleTimeout(for: request)
    set(magpie_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, idle.wholeMilliseconds)))
    let insecure =
      url.host.map { host in
        configuration.hostsAllowingInvalidCertificates.contains { $0.caseInsensitiveCompare(host) == .orderedSame }
      } ?? false
    set(magpie_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, insecure ? 0 : 1))
    set(magpie_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, insecure ? 0 : 2))
    // Handles are reused without curl_easy_reset (which would also drop
    // the receive buffer), so every option a request may change is set.
    set(magpie_curl_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, nil))
    set(magpie_curl_setopt_long(easy, CURLOPT_HTTPGET, 1))
    switch request.httpMethod?.uppercased() ?? "GET" {
    case "GET":
      break
    case "HEAD":
      set(magpie_curl_setopt_long(easy, CURLOPT_NOBODY, 1))
    case let method:
      let body = request.httpBody ?? Data()
      if !body.isEmpty || method == "POST" || method == "PUT" {
        set(magpie_curl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
        body.withUnsafeBytes { bytes in
          // COPYPOSTFIELDS copies, so the Data need not outlive the call.
          let base = bytes.baseAddress ?? UnsafeRawPointer(errorBuffer)
          set(magpie_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base)))
        }
      }
      set(magpie_curl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method))
    }
    if let headerList { curl_slist_free_all(headerList) }
    headerList = Self.headerList(for: request)
    set(magpie_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList))
    guard code == CURLE_OK else { return CurlErrorMapping.error(code, detail: errorDetail, url: url) }
    return nil
  }

  private static func headerList(for request: URLRequest) -> UnsafeMutablePointer<curl_slist>? {
    var list: UnsafeMutablePointer<curl_slist>?
    let fields = request.allHTTPHeaderFields ?? [:]
    for (name, value) in fields {
      // "Name;" sends an empty header; "Name: " would remove it.
      list = curl_slist_append(list, value.isEmpty ? "\(name);" : "\(name): \(value)")
    }
    let names = Set(fields.keys.map { $0.lowercased() })
    if !names.contains("user-agent") { list = curl_slist_append(list, "User-Agent: Magpie/\(LibraryVersions.magpie)") }
    if !names.contains("expect") { list = curl_slist_append(list, "Expect:") }
    return list
  }

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

/// CURLOPT_WRITEFUNCTION: hands body bytes to the transfer.
private let curlBodyCallback: curl_write_callback = { data, size, count, context in
  guard let data, let context else { return 0 }
  let active = Unmanaged<CurlActiveTransfer>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  return active.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// CURLOPT_HEADERFUNCTION: hands one header line to the transfer.
private let curlHeaderCallback: curl_write_callback = { data, size, count, context in
  guard let data, let context else { return 0 }
  let active = Unmanaged<CurlActiveTransfer>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  return active.receiveHeader(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}
