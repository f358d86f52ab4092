import CCurl
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The libcurl thread's own state and loop: runs the multi handle, starts,
/// redirects, times out and ends transfers. Nothing here is shared; other
/// threads reach it only through ``CurlMultiDriver``'s commands.
final class CurlLoop {
  private let driver: CurlMultiDriver
  private let multi: UnsafeMutableRawPointer
  private var transfers: [Int: CurlActiveTransfer] = [:]
  private var byHandle: [UnsafeMutableRawPointer: CurlActiveTransfer] = [:]
  /// Reset easy handles kept for the next transfers.
  private var spareHandles: [UnsafeMutableRawPointer] = []
  /// No deadline runs out before this (monotonic nanoseconds).
  private var earliestDeadline = UInt64.max
  /// When the current round of libcurl work began (its poll returned): the
  /// time the callbacks record as a transfer's activity. One clock read a
  /// round instead of one per header line and body chunk; the limits are
  /// whole seconds, a round lasts microseconds to milliseconds.
  private(set) var roundStarted = TransferDeadline.now()
  /// Buffers for body chunks, one pool for every loop in the process: a
  /// pool per loop let a server with two loaders, a loop per core each,
  /// keep four times the free memory (RSS climbed with every miss until
  /// each pool had filled).
  static let chunkBuffers = ChunkBufferPool(bufferSize: CurlActiveTransfer.bufferSize, limit: 64)
  /// Buffers for whole bodies; likewise one pool for the process.
  static let bodyBuffers = BufferPool()
  /// Transfers with events to yield after this round.
  private var unflushed: [CurlActiveTransfer] = []

  init(driver: CurlMultiDriver) {
    self.driver = driver
    multi = driver.multi.value
  }

  func run() {
    while true {
      let now = TransferDeadline.now()
      roundStarted = now
      if !handleCommands() { break }
      var running: Int32 = 0
      _ = curl_multi_perform(multi, &running)
      collectFinished()
      if now >= earliestDeadline { expireDeadlines(now: now) }
      for active in unflushed { active.flush() }
      unflushed.removeAll(keepingCapacity: true)
      _ = curl_multi_poll(multi, nil, 0, pollTimeout(now: now), nil)
    }
    shutDown()
  }

  // MARK: Commands

  /// Runs the commands sent since the last round; `false` when the loop
  /// must stop. A function of its own so that the commands (a start holds
  /// its transfer, whose callbacks hold the caller's work) are released
  /// before the loop waits in the poll.
  private func handleCommands() -> Bool {
    let (commands, stopping) = driver.takeCommands()
    if stopping { return false }
    for command in commands { handle(command) }
    return true
  }

  private func handle(_ command: CurlMultiDriver.Command) {
    switch command {
    case .start(let transfer, let request):
      start(transfer, request: request)
    case .cancel(let id):
      guard let active = transfers[id] else { return }
      end(active, MagpieError(.cancelled, "the load was cancelled"))
    case .redirect(let id, let decision, let redirect):
      guard let active = transfers[id], active.awaitsRedirectDecision else { return }
      active.awaitsRedirectDecision = false
      switch decision {
      case .follow: startHop(active, request: redirect.proposedRequest)
      case .followModified(let request): startHop(active, request: request)
      case .refuse:
        let status = redirect.response.statusCode
        end(
          active,
          MagpieError(
            .httpStatus,
            "the redirect handler refused the \(status) redirect to \(redirect.proposedRequest.url.redactedDescription(or: "?"))",
            statusCode: status, refusal: .redirectHandler))
      }
    }
  }

  /// Called by a transfer when it queues its first event of a round.
  func needsFlush(_ active: CurlActiveTransfer) {
    unflushed.append(active)
  }

  private func start(_ transfer: CurlTransfer, request: URLRequest) {
    guard !transfer.isCancelled else {
      transfer.finish(MagpieError(.cancelled, "the load was cancelled"))
      return
    }
    let active = CurlActiveTransfer(transfer: transfer, request: request, loop: self)
    transfers[transfer.id] = active
    earliestDeadline = min(earliestDeadline, active.deadline.nextExpiry)
    startHop(active, request: request)
  }

  /// Sends `request` as the transfer's next hop on a fresh or spare handle.
  private func startHop(_ active: CurlActiveTransfer, request: URLRequest) {
    let easy: UnsafeMutableRawPointer
    if let handle = active.easy ?? spareHandles.popLast() {
      easy = handle
    } else if let handle = curl_easy_init() {
      easy = handle
    } else {
      end(active, MagpieError(.network, "libcurl could not create a transfer (curl_easy_init failed)"))
      return
    }
    active.easy = easy
    byHandle[easy] = active
    if let error = active.configure(easy, for: request) {
      end(active, error)
      return
    }
    guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
      end(active, MagpieError(.network, "libcurl could not start the transfer (curl_multi_add_handle failed)"))
      return
    }
    active.isRunning = true
  }

  // MARK: Finished transfers

  private func collectFinished() {
    var left: Int32 = 0
    while let message = curl_multi_info_read(multi, &left) {
      guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
        let active = byHandle[easy]
      else { continue }
      let code = message.pointee.data.result
      curl_multi_remove_handle(multi, easy)
      active.isRunning = false
      completed(active, code: code)
    }
  }

  private func completed(_ active: CurlActiveTransfer, code: CURLcode) {
    if let failure = active.failure {
      end(active, failure)
      return
    }
    if active.transfer.isCancelled {
      end(active, MagpieError(.cancelled, "the load was cancelled"))
      return
    }
    if code == CURLE_OK, let next = active.redirectTarget, let response = active.redirectResponse {
      redirect(active, to: next, response: response)
      return
    }
    if code != CURLE_OK {
      var error = CurlErrorMapping.error(code, detail: active.errorDetail, url: active.request.url)
      if let refused = active.refusedAddress {
        error = MagpieError(
          .network, "the connection to \(refused) was refused by the loader's address filter (addressFilter)",
          refusal: .addressFilter)
      }
      if code == CURLE_PARTIAL_FILE {
        // Say how short, in the validator's words.
        do throws(MagpieError) { _ = try active.validator.finish() } catch let short { error = short }
      }
      end(active, error)
      return
    }
    do throws(MagpieError) {
      if case .data(let data, let received, let expected)? = try active.validator.finish() {
        active.deliver(.data(data, received: received, expected: expected))
      }
      end(active, nil)
    } catch {
      end(active, error)
    }
  }

  private func redirect(_ active: CurlActiveTransfer, to proposed: URLRequest, response: HTTPURLResponse) {
    let configuration = active.transfer.configuration
    active.redirects += 1
    active.deadline.touch()
    guard active.redirects <= configuration.maximumRedirects else {
      end(
        active,
        MagpieError(
          .invalidResponse,
          "more than \(configuration.maximumRedirects) redirects (maximumRedirects), the last from "
            + "\(active.request.url.redactedDescription(or: "?")); a redirect loop?"))
      return
    }
    var next = proposed
    RequestPreparation.addCredentials(to: &next, configuration: configuration)
    guard let handler = configuration.redirectHandler else {
      startHop(active, request: next)
      return
    }
    active.awaitsRedirectDecision = true
    let redirect = HTTPRedirect(
      response: response, proposedRequest: next, originalRequest: active.original, number: active.redirects)
    let driver = driver
    let id = active.transfer.id
    Task {
      let decision = await handler(redirect)
      driver.send(.redirect(id, decision, redirect))
    }
  }

  // MARK: Ending

  /// Ends the transfer: stops its handle if it runs (libcurl then closes
  /// the connection), keeps the handle for reuse, and finishes the stream.
  private func end(_ active: CurlActiveTransfer, _ error: MagpieError?) {
    transfers[active.transfer.id] = nil
    if let easy = active.easy {
      if active.isRunning { curl_multi_remove_handle(multi, easy) }
      active.isRunning = false
      active.transfer.cookies?.detach(easy)
      byHandle[easy] = nil
      // Unhook the callbacks from this transfer; the next configure()
      // sets everything else again.
      _ = magpie_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, nil)
      _ = magpie_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, nil)
      _ = magpie_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, nil)
      _ = magpie_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, nil)
      if spareHandles.count < 64 { spareHandles.append(easy) } else { curl_easy_cleanup(easy) }
      active.easy = nil
    }
    // A cut transfer hands over what it received too, for a resume.
    active.flush(final: error?.cutsTransfer ?? true)
    active.transfer.finish(error)
  }

  private func expireDeadlines(now: UInt64) {
    var earliest = UInt64.max
    var expired: [(CurlActiveTransfer, MagpieError)] = []
    for active in transfers.values {
      if let error = active.deadline.expired(now: now) {
        expired.append((active, error))
      } else {
        earliest = min(earliest, active.deadline.nextExpiry)
      }
    }
    earliestDeadline = earliest
    for (active, error) in expired { end(active, error) }
  }

  private func pollTimeout(now: UInt64) -> Int32 {
    var curlTimeout = -1
    _ = curl_multi_timeout(multi, &curlTimeout)
    let idle = driver.idlePollMilliseconds
    var timeout = curlTimeout < 0 ? idle : min(curlTimeout, idle)
    if earliestDeadline != .max {
      let untilDeadline = earliestDeadline > now ? Int((earliestDeadline - now) / 1_000_000) + 1 : 0
      timeout = min(timeout, untilDeadline)
    }
    return Int32(clamping: timeout)
  }

  private func shutDown() {
    for active in Array(transfers.values) {
      end(active, MagpieError(.cancelled, "the loader was released while loading"))
    }
    for command in driver.markExited() {
      if case .start(let transfer, _) = command {
        transfer.finish(MagpieError(.cancelled, "the loader was released while loading"))
      }
    }
    for easy in spareHandles { curl_easy_cleanup(easy) }
    spareHandles = []
    curl_multi_cleanup(multi)
  }
}
