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
  }

  // OpenSSL first, so that libcurl's initialising it registers no exit-time cleanup.
  private static let globalInit: CURLcode = {
    _ = OpenSSLSetup.isReady
    return curl_global_init(Int(CURL_GLOBAL_DEFAULT))
  }()

  /// The multi handle; only the libcurl thread uses it, except for wakeups.
  let multi: UncheckedSendable<UnsafeMutableRawPointer>
  private let inbox = Lock(Inbox())
  /// The longest the thread sleeps in `curl_multi_poll` without a wakeup,
  /// in milliseconds (see ``CurlDataLoader/init(configuration:idlePoll:)``).
  let idlePollMilliseconds: Int

  /// Starts the libcurl thread; fails when libcurl cannot start.
  init(maximumConnectionsPerHost: Int, idlePoll: Duration = .seconds(5)) throws(MagpieError) {
    guard Self.globalInit == CURLE_OK, let handle = curl_multi_init() else {
      throw MagpieError(.network, "libcurl could not start (curl_global_init or curl_multi_init failed)")
    }
    _ = magpie_curl_multi_setopt_long(handle, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, maximumConnectionsPerHost))
    _ = magpie_curl_multi_setopt_long(handle, CURLMOPT_MAXCONNECTS, max(16, maximumConnectionsPerHost * 4))
    multi = UncheckedSendable(handle)
    idlePollMilliseconds = max(1, idlePoll.wholeMilliseconds)
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
      // One wakeup per batch: the thread takes all commands at once. Under
      // the lock: the thread cleans the handle up only after it marked
      // itself exited under this lock.
      if inbox.commands.count == 1 { _ = curl_multi_wakeup(multi.value) }
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

  /// The thread's side: the commands posted since the last call, and
  /// whether to stop.
  func takeCommands() -> (commands: [Command], stopping: Bool) {
    inbox.withLock { inbox in
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
