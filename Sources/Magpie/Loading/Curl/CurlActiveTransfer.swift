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
  /// The least time between two progress reports of a collecting transfer
  /// (nanoseconds): 20 a second is smooth for a progress bar and wakes the
  /// consumer seldom.
  static let progressInterval: UInt64 = 50_000_000

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
  /// The body so far, when the transfer collects it (written straight
  /// from libcurl's buffer: one copy, no event per chunk).
  var body: CollectedBody
  /// When a collecting transfer last reported progress (or its head
  /// came: the first report is due an interval into the body).
  var lastProgress: UInt64 = 0
  /// Whether this transfer is in the loop's list of those to flush.
  private var flushRequested = false
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
  /// Whether libcurl answers challenges with a login on this transfer.
  var authenticating = false
  /// Whether the challenge libcurl answers has come (its 401 passed over).
  var challengeSeen = false
  /// Whether the body arriving is a passed-over challenge's.
  var skippingChallengeBody = false
  /// The challenge of a final 401, for the downloader to answer.
  var challenge: HTTPAuthenticationChallenge?
  /// The next request, when this hop's response is a redirect to follow.
  var redirectTarget: URLRequest?
  /// The address ``DataLoaderConfiguration/addressFilter`` refused, for
  /// the error the failed connection ends in.
  var refusedAddress: String?
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
    body = CollectedBody(pool: CurlLoop.bodyBuffers)
    deadline = TransferDeadline(
      idle: transfer.configuration.idleTimeout(for: request), total: transfer.configuration.resourceTimeout)
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
  }

  deinit {
    body.discard()
    if let headerList { curl_slist_free_all(headerList) }
    errorBuffer.deallocate()
  }

  /// Queues `event` for the next ``flush(final:)``; a transfer that
  /// collects its body adds a chunk to it instead, and keeps its head
  /// until the end.
  func deliver(_ event: CurlEvent) {
    if transfer.collectsBody, case .data(let chunk, _, _) = event {
      chunk.withUnsafeBytes { body.append($0) }
      return
    }
    queue(event)
  }

  /// A collecting transfer's progress, when reported and due: an event
  /// with no bytes.
  func reportProgress() {
    guard transfer.reportsProgress else { return }
    let now = loop.roundStarted
    guard now - lastProgress >= Self.progressInterval else { return }
    lastProgress = now
    pending.append(.data(Data(), received: validator.received, expected: validator.expected))
    requestFlush()
  }

  /// A collecting transfer's head waits for its first progress report or
  /// its end, so a small body wakes its consumer once.
  private func queue(_ event: CurlEvent) {
    pending.append(event)
    if !transfer.collectsBody { requestFlush() }
  }

  private func requestFlush() {
    guard !flushRequested else { return }
    flushRequested = true
    loop.needsFlush(self)
  }

  /// Yields the queued events, as one element: one wake-up of a waiting
  /// consumer per round, however many events the round produced. A
  /// transfer that collects its body yields only when it ends (`final`):
  /// its head and the whole body.
  func flush(final: Bool = false) {
    flushRequested = false
    if transfer.collectsBody {
      guard final || transfer.reportsProgress else { return }
      if final && !body.isEmpty {
        pending.append(.data(body.take(), received: validator.received, expected: validator.expected))
      }
    }
    guard !pending.isEmpty else { return }
    transfer.yield(pending)
    pending.removeAll(keepingCapacity: true)
  }

  /// libcurl's message for the last failure, or "".
  var errorDetail: String { String(cString: errorBuffer) }
}
