import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The checks every loader makes on a final (non-redirect) response and its
/// body, as a value that takes transfer events and returns what to deliver:
/// status, size cap, image sniffing, and a body that ends short of its
/// Content-Length. Loaders feed it and deliver what it returns; when it
/// throws, they cancel the transfer and end the stream with that error.
package struct ResponseValidator {
  /// Bytes needed before a sniff is trusted; formats with magic numbers
  /// need far fewer.
  static let sniffBytes = 64
  /// The most bytes held back while a text-looking body might still turn
  /// out to be an SVG with a long prolog.
  static let sniffWindow = 4096

  private let isConditional: Bool
  private let isHead: Bool
  /// The request asked for a byte range (a resume): a `206` body starts
  /// mid-file and is not sniffed.
  private let isRanged: Bool
  private let maximumBodySize: Int64
  private let requiresImageContent: Bool
  private var held = Data()
  private var sniffed = false
  private var statusCode = 0
  private var contentType = ""
  /// Body bytes received so far.
  private(set) var received: Int64 = 0
  /// The body size the server announced, when it announced a usable one.
  private(set) var expected: Int64?
  /// Whether the response was a `304 Not Modified` to a conditional request.
  private(set) var isNotModified = false

  /// Checks for a response to `request`.
  /// A header the pipeline sets on a request whose body a
  /// ``DataTransformer`` will turn into an image (an encrypted one, say):
  /// its body is not sniffed. Loaders never send it.
  package static let opaqueBodyField = "X-Magpie-Opaque-Body"

  package init(request: URLRequest, configuration: DataLoaderConfiguration) {
    isConditional =
      request.value(forHTTPHeaderField: "If-None-Match") != nil
      || request.value(forHTTPHeaderField: "If-Modified-Since") != nil
    isHead = request.httpMethod?.uppercased() == "HEAD"
    isRanged = request.value(forHTTPHeaderField: "Range") != nil
    maximumBodySize = configuration.maximumBodySize
    requiresImageContent =
      configuration.requiresImageContent && !isHead && request.value(forHTTPHeaderField: Self.opaqueBodyField) == nil
  }

  /// Checks the head of the final response.
  package mutating func accept(_ head: ResponseHead) throws(MagpieError) {
    statusCode = head.statusCode
    contentType = head.contentType ?? "no Content-Type"
    // Only an error says it; building it for every response cost 2 % of
    // the loader's CPU.
    var url: String { head.url.redactedDescription(or: "the server") }
    switch statusCode {
    case 200..<300:
      break
    case 304 where isConditional:
      isNotModified = true
      return
    default:
      let name = HTTPURLResponse.localizedString(forStatusCode: statusCode)
      var retryAfter: Duration?
      if statusCode == 429 || statusCode == 503, let value = head.retryAfter {
        retryAfter = RetryAfter.parse(value)
      }
      let why =
        statusCode == 304
        ? "\(url) answered 304 Not Modified to a request that was not conditional"
        : "\(url) answered \(statusCode) \(name)"
      throw MagpieError(.httpStatus, why, statusCode: statusCode, retryAfter: retryAfter)
    }
    let encoding = head.contentEncoding?.lowercased()
    // No loader asks for compression (images are compressed already) or
    // decodes it: an encoded body is refused rather than inflated (a bomb)
    // or handed on undecoded as an image.
    if !isHead, let encoding, encoding != "identity" {
      throw MagpieError(
        .invalidResponse,
        "\(url) sent its body with Content-Encoding \(encoding), which Magpie neither asks for nor decodes")
    }
    if let length = head.contentLength.flatMap(Self.parseLength), encoding == nil || encoding == "identity", !isHead {
      expected = length
      if length > maximumBodySize {
        throw MagpieError(
          .invalidResponse,
          "\(url) announced a \(length)-byte body, over the \(maximumBodySize)-byte limit (maximumBodySize)",
          refusal: .maximumBodySize)
      }
    }
    sniffed = !requiresImageContent || (isRanged && statusCode == 206)
  }

  /// A Content-Length value: digits, maybe padded with spaces.
  private static func parseLength(_ text: String) -> Int64? {
    var value: Int64 = 0
    var digits = 0
    for byte in text.utf8 {
      if byte == 0x20 || byte == 0x09 { continue }
      guard byte >= 0x30, byte <= 0x39, digits < 18 else { return nil }
      value = value * 10 + Int64(byte - 0x30)
      digits += 1
    }
    return digits > 0 ? value : nil
  }

  /// Takes a body chunk; returns the event to deliver, if any yet (the
  /// first bytes are held until they are sniffed).
  package mutating func accept(_ chunk: Data) throws(MagpieError) -> DataLoadingEvent? {
    guard !isNotModified, !chunk.isEmpty else { return nil }
    try count(chunk.count)
    if sniffed {
      return .data(chunk, received: received, expected: expected)
    }
    if held.isEmpty { held = chunk } else { held.append(chunk) }
    guard try sniffHeld(atEnd: false) else { return nil }
    defer { held = Data() }
    return .data(held, received: received, expected: expected)
  }

  /// Takes body bytes for a loader that collects the whole body: hands
  /// them to `append` (once the first bytes are sniffed), with no `Data`
  /// per chunk and no event. The same checks as ``accept(_:)``.
  package mutating func accept(
    _ bytes: UnsafeRawBufferPointer, appending append: (UnsafeRawBufferPointer) -> Void
  ) throws(MagpieError) {
    guard !isNotModified, !bytes.isEmpty else { return }
    try count(bytes.count)
    if sniffed {
      append(bytes)
      return
    }
    held.append(contentsOf: bytes)
    guard try sniffHeld(atEnd: false) else { return }
    held.withUnsafeBytes(append)
    held = Data()
  }

  /// Counts `more` body bytes against the size cap.
  private mutating func count(_ more: Int) throws(MagpieError) {
    received += Int64(more)
    if received > maximumBodySize {
      throw MagpieError(
        .invalidResponse, "the body grew past the \(maximumBodySize)-byte limit (maximumBodySize)",
        refusal: .maximumBodySize)
    }
  }

  /// The body ended cleanly; returns the held bytes still to deliver, or
  /// throws when the body was short, empty or not an image.
  package mutating func finish() throws(MagpieError) -> DataLoadingEvent? {
    guard !isNotModified else { return nil }
    if let expected, received < expected {
      throw MagpieError(
        .invalidResponse,
        "the body ended after \(received) of the \(expected) bytes its Content-Length announced",
        underlying: BodyCut())
    }
    if requiresImageContent && received == 0 {
      throw MagpieError(.invalidResponse, "the server answered \(statusCode) with an empty body, not an image")
    }
    guard !sniffed else { return nil }
    _ = try sniffHeld(atEnd: true)
    defer { held = Data() }
    return held.isEmpty ? nil : .data(held, received: received, expected: expected)
  }

  /// Whether the held bytes are known to be an image; throws when they are
  /// known not to be one.
  private mutating func sniffHeld(atEnd: Bool) throws(MagpieError) -> Bool {
    guard atEnd || held.count >= Self.sniffBytes else { return false }
    if ImageFormat.sniff(held) != .unknown {
      sniffed = true
      return true
    }
    // Only markup (an SVG behind a long prolog) can still become an image.
    if !atEnd && held.count < Self.sniffWindow && mayBeMarkup { return false }
    let start = String(decoding: held.prefix(48), as: UTF8.self)
      .map { $0.isNewline || $0 == "\t" ? " " : $0 }
      .filter { !$0.isASCII || $0.asciiValue! >= 0x20 }
    throw MagpieError(
      .invalidResponse,
      "the server answered \(statusCode) with \(contentType) that is not an image (it starts \"\(String(start))\")")
  }

  /// The held bytes start, after a BOM and whitespace, with `<`.
  private var mayBeMarkup: Bool {
    var bytes = held[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    return first == nil || first == UInt8(ascii: "<")
  }
}
