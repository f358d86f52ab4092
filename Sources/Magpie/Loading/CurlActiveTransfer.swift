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
  var request: URLRequest
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
  unowned let loop: CurlLoop

  // The current hop.
  var headerList: UnsafeMutablePointer<curl_slist>?
  let errorBuffer: UnsafeMutablePointer<CChar>
  /// The current hop's URL.
  var url: URL
  /// The current hop's response head, as its lines arrive.
  var parser: ResponseHeadParser
  /// Set once the final head is delivered: later header lines are
  /// trailers of a chunked body, not a new head.
  var headDelivered = false
  /// The next request, when this hop's response is a redirect to follow.
  var redirectTarget: URLRequest?
  /// The redirect response of this hop, when there is one.
  var redirectResponse: HTTPURLResponse?
  var redirectBodyBytes = 0
  /// Bytes of trailer fields after the final head.
  var trailerBytes = 0
  /// The error a callback hit; the callback then aborted the transfer.
  var failure: MagpieError?

  init(transfer: CurlTransfer, request: URLRequest, loop: CurlLoop) {
    self.transfer = transfer
    self.loop = loop
    self.request = request
    original = request
    url = request.url ?? URL(fileURLWithPath: "/")
    parser = ResponseHeadParser(url: url, maximumHeaderSize: transfer.configuration.maximumHeaderSize)
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
}
