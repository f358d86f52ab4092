import CCurl
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The thread-safe face of one libcurl multi handle and the thread that
/// runs it. Other threads only post commands and wake the thread with
/// `curl_multi_wakeup` (the one multi call libcurl allows from any thread);
/// every other libcurl call happens on the thread, in ``CurlLoop``.
final class CurlMultiDriver: Sendable {
  /// What other threads ask of the libcurl thread.
  enum Command: Sendable {
    case start(CurlTransfer, URLRequest)
    case cancel(Int)
    case redirect(Int, RedirectDecision, HTTPRedirect)
  }

  private struct Inbox {
    var commands: [Command] = []
    var stopping = false
    var exited = false
    /// The thread is in (or about to enter) `curl_multi_poll`; only then
    /// does a command need a wakeup, at most one per poll.
    var polling = false
    var woken = false
  }

  private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

  /// The multi handle; only the libcurl thread uses it, except for wakeups.
  let multi: UncheckedSendable<UnsafeMutableRawPointer>
  private let inbox = Lock(Inbox())

  /// Starts the libcurl thread; fails when libcurl cannot start.
  init(maximumConnectionsPerHost: Int) throws(MagpieError) {
    guard Self.globalInit == CURLE_OK, let handle = curl_multi_init() else {
      throw MagpieError(.network, "libcurl could not start (curl_global_init or curl_multi_init failed)")
    }
    _ = magpie_curl_multi_setopt_long(handle, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, maximumConnectionsPerHost))
    _ = magpie_curl_multi_setopt_long(handle, CURLMOPT_MAXCONNECTS, max(16, maximumConnectionsPerHost * 4))
    multi = UncheckedSendable(handle)
    let thread = Thread { [self] in CurlLoop(driver: self).run() }
    thread.name = "magpie.curl"
    thread.start()
  }

  /// Posts a command; `false` when the loader is shutting down.
  @discardableResult
  func send(_ command: Command) -> Bool {
    inbox.withLock { inbox in
      guard !inbox.stopping else { return false }
      inbox.commands.append(command)
      // A thread that is not polling takes the command before it next
      // polls (``beginPoll()``): waking it would only make that poll
      // return at once. Writing the wakeup cost both threads a system call
      // per request. Under the lock: the thread cleans the handle up only
      // after it marked itself exited under this lock.
      if inbox.polling && !inbox.woken {
        inbox.woken = true
        _ = curl_multi_wakeup(multi.value)
      }
      return true
    }
  }

  /// Asks the thread to cancel every transfer and exit.
  func shutdown() {
    inbox.withLock { inbox in
      inbox.stopping = true
      if !inbox.exited { _ = curl_multi_wakeup(multi.value) }
    }
  }

  /// The thread's side, before it polls: whether to poll now (`false`
  /// when commands came in since it took them, or it should stop). After
  /// `true`, commands sent wake the poll.
  func beginPoll() -> Bool {
    inbox.withLock { inbox in
      guard inbox.commands.isEmpty && !inbox.stopping else { return false }
      inbox.polling = true
      inbox.woken = false
      return true
    }
  }

  /// The thread's side: the commands posted since the last call, and
  /// whether to stop. Ends a poll that ``beginPoll()`` began.
  func takeCommands() -> (commands: [Command], stopping: Bool) {
    inbox.withLock { inbox in
      inbox.polling = false
      defer { inbox.commands = [] }
      return (inbox.commands, inbox.stopping)
    }
  }

  /// The thread's side, last: no wakeup may touch the handle after this.
  func markExited() -> [Command] {
    inbox.withLock { inbox in
      inbox.exited = true
      inbox.stopping = true
      defer { inbox.commands = [] }
      return inbox.commands
    }
  }
}
