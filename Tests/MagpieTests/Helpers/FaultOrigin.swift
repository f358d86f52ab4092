import Dispatch
import Foundation
import Magpie

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP/1.1 origin on 127.0.0.1 for what nginx cannot do: the
/// faults of ``FaultRoute``. It runs in the test process, one thread per
/// connection, records every request, and tells tests what it saw through
/// `async` waits (a request arrived, a client closed a connection) so that
/// tests never sleep.
///
/// `@unchecked Sendable`: the listening socket and port never change after
/// `init`; everything else sits behind `state`.
final class FaultOrigin: @unchecked Sendable {
  /// The port it listens on.
  let port: Int
  let listener: Int32
  let state = Lock(State())

  /// Starts listening on a free port of 127.0.0.1.
  init() throws {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw NginxOriginError(reason: "socket() failed") }
    var yes: Int32 = 1
    _ = setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(socket, 128) == 0 else {
      close(socket)
      throw NginxOriginError(reason: "cannot listen on 127.0.0.1")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    listener = socket
    port = Int(UInt16(bigEndian: address.sin_port))
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "fault-origin.accept"
    thread.start()
  }

  deinit {
    stop()
  }

  /// The URL of `path` on this origin.
  func url(_ path: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)\(path)")!
  }

  /// Sets how `path` (without query) is answered; unknown paths get 404.
  func route(_ path: String, _ route: FaultRoute) {
    state.withLock { $0.routes[path] = route }
  }

  /// The requests received for `path` (query ignored), in order.
  func requests(_ path: String) -> [FaultOriginRequest] {
    state.withLock { $0.requests.filter { Self.path(of: $0.target) == path } }
  }

  /// How many requests arrived for `path`.
  func requestCount(_ path: String) -> Int { requests(path).count }

  /// Stops accepting and ends every connection. Idempotent.
  ///
  /// Descriptors are shut down under the lock, and connection threads close
  /// theirs under it too: a number closed elsewhere and reused by another
  /// socket in the process (a loader's) must never be touched here.
  func stop() {
    let waiters = state.withLock { state -> [Waiter]? in
      guard !state.stopped else { return nil }
      state.stopped = true
      shutdown(listener, Int32(SHUT_RDWR))
      for descriptor in state.descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters ?? [] { waiter.continuation.resume(returning: false) }
  }
}
