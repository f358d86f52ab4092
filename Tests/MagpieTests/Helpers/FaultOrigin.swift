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
  private struct Waiter {
    var path: String
    var count: Int
    var kind: Kind
    var continuation: CheckedContinuation<Bool, Never>
    var id: Int
  }

  private enum Kind {
    case request
    case close
  }

  private struct State {
    var routes: [String: FaultRoute] = [:]
    var requests: [FaultOriginRequest] = []
    var closes: [String: Int] = [:]
    var served: [String: Int] = [:]
    var waiters: [Waiter] = []
    var descriptors: Set<Int32> = []
    var connections = 0
    var nextWaiter = 0
    var stopped = false
  }

  /// The port it listens on.
  let port: Int
  private let listener: Int32
  private let state = Lock(State())

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

  /// Waits until `count` requests for `path` have arrived. Returns `false`
  /// if that has not happened after `limit` (a failing test, not a hang).
  @discardableResult
  func waitForRequests(_ path: String, count: Int = 1, limit: Duration = .seconds(10)) async -> Bool {
    await wait(.request, path: path, count: count, limit: limit)
  }

  /// Waits until a client has closed a connection on which `path` was
  /// requested. Returns `false` if none has after `limit`.
  @discardableResult
  func waitForClientClose(_ path: String, limit: Duration = .seconds(10)) async -> Bool {
    await wait(.close, path: path, count: 1, limit: limit)
  }

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

  // MARK: Waiting

  private func wait(_ kind: Kind, path: String, count: Int, limit: Duration) async -> Bool {
    let id = state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let immediate = state.withLock { state -> Bool? in
        if Self.reached(kind, path: path, count: count, in: state) { return true }
        if state.stopped { return false }
        state.waiters.append(Waiter(path: path, count: count, kind: kind, continuation: continuation, id: id))
        return nil
      }
      if let immediate {
        continuation.resume(returning: immediate)
        return
      }
      // A watchdog, not a wait for work: it only fires when the test is
      // failing, so that it fails instead of hanging. Longer under TSan.
      let watchdog = limit * Sanitizer.slowdown
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(watchdog.wholeMilliseconds)) { [self] in
        let expired = state.withLock { state -> Waiter? in
          guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
          return state.waiters.remove(at: index)
        }
        expired?.continuation.resume(returning: false)
      }
    }
  }

  private static func reached(_ kind: Kind, path: String, count: Int, in state: State) -> Bool {
    switch kind {
    case .request: return state.requests.lazy.filter { Self.path(of: $0.target) == path }.count >= count
    case .close: return (state.closes[path] ?? 0) >= count
    }
  }

  /// Resumes the waiters whose condition now holds.
  private func signal(_ state: inout State) {
    var remaining: [Waiter] = []
    for waiter in state.waiters {
      if Self.reached(waiter.kind, path: waiter.path, count: waiter.count, in: state) {
        waiter.continuation.resume(returning: true)
      } else {
        remaining.append(waiter)
      }
    }
    state.waiters = remaining
  }

  private static func path(of target: String) -> String {
    String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
  }

  // MARK: Serving

  private func acceptLoop() {
    while true {
      let descriptor = accept(listener, nil, nil)
      if descriptor < 0 {
        // After stop() shut it down (under the lock, once), the listener is
        // this thread's to close; any other failure is retried.
        if state.withLock(\.stopped) {
          close(listener)
          return
        }
        var none = pollfd(fd: -1, events: 0, revents: 0)
        _ = poll(&none, 0, 10)
        continue
      }
      let number = state.withLock { state -> Int? in
        guard !state.stopped else { return nil }
        state.connections += 1
        state.descriptors.insert(descriptor)
        return state.connections
      }
      guard let number else {
        close(descriptor)
        continue
      }
      let thread = Thread { [self] in serve(descriptor, number: number) }
      thread.name = "fault-origin.connection"
      thread.start()
    }
  }

  private func serve(_ descriptor: Int32, number: Int) {
    let socket = FaultSocket(descriptor: descriptor, isStopped: { [self] in state.withLock(\.stopped) })
    var paths: Set<String> = []
    var clientClosed = false
    var closedHere = false
    while let head = socket.readHead() {
      let path = Self.path(of: head.target)
      paths.insert(path)
      let (route, servedBefore) = state.withLock { state -> (FaultRoute?, Int) in
        state.requests.append(
          FaultOriginRequest(method: head.method, target: head.target, headers: head.headers, connection: number))
        let served = state.served[path] ?? 0
        state.served[path] = served + 1
        signal(&state)
        return (state.routes[path], served)
      }
      switch answer(head, route: route, servedBefore: servedBefore, on: socket) {
      case .keepAlive:
        if head.headers["connection"]?.lowercased() == "close" {
          socket.finish()
          closedHere = true
        }
      case .clientClosed:
        clientClosed = true
      case .closedByOrigin:
        closedHere = true
      }
      if clientClosed || closedHere { break }
    }
    state.withLock { state in
      // readHead returned nil (the client closed), or the client left
      // mid-answer, unless the origin itself stopped or closed.
      clientClosed = clientClosed || (!closedHere && !state.stopped)
      state.descriptors.remove(descriptor)
      close(descriptor)
      if clientClosed {
        for path in paths { state.closes[path, default: 0] += 1 }
        signal(&state)
      }
    }
  }

  private enum Outcome {
    case keepAlive
    case clientClosed
    case closedByOrigin
  }

  private func answer(
    _ head: FaultSocket.Head, route: FaultRoute?, servedBefore: Int, on socket: FaultSocket
  ) -> Outcome {
    func sent(_ ok: Bool) -> Outcome { ok ? .keepAlive : .clientClosed }
    func okResponse(_ body: Data, contentType: String, etag: String?) -> Data {
      if let etag, head.headers["if-none-match"] == etag {
        return Data("HTTP/1.1 304 Not Modified\r\nETag: \(etag)\r\nContent-Length: 0\r\n\r\n".utf8)
      }
      var text = "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
      if let etag { text += "ETag: \(etag)\r\n" }
      return Data((text + "\r\n").utf8) + (head.method == "HEAD" ? Data() : body)
    }
    guard let route else {
      return sent(socket.write("HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found"))
    }
    switch route {
    case .ok(let body, let contentType, let etag):
      return sent(socket.write(okResponse(body, contentType: contentType, etag: etag)))
    case .stall:
      return socket.waitForClose(milliseconds: nil) ? .clientClosed : .closedByOrigin
    case .stallMidBody(let body, let count):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(body.count)\r\n\r\n"
      guard socket.write(head), socket.write(body.prefix(count)) else { return .clientClosed }
      return socket.waitForClose(milliseconds: nil) ? .clientClosed : .closedByOrigin
    case .delayHeaders(let delay, let body):
      if socket.waitForClose(milliseconds: delay.wholeMilliseconds) { return .clientClosed }
      return sent(socket.write(okResponse(body, contentType: "image/png", etag: nil)))
    case .dropMidBody(let body, let count):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(body.count)\r\n\r\n"
      guard socket.write(head), socket.write(body.prefix(count)) else { return .clientClosed }
      socket.reset()
      return .closedByOrigin
    case .shortBody(let body, let declared):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(declared)\r\n\r\n"
      guard socket.write(head), socket.write(body) else { return .clientClosed }
      socket.finish()
      return .closedByOrigin
    case .endless(let prefix):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nConnection: close\r\n\r\n"
      guard socket.write(head), socket.write(prefix) else { return .clientClosed }
      let zeros = Data(count: 64 * 1024)
      while socket.write(zeros) {}
      return state.withLock(\.stopped) ? .closedByOrigin : .clientClosed
    case .redirect(let status, let location):
      return sent(
        socket.write("HTTP/1.1 \(status) Redirect\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n"))
    case .status(let status, let headers, let body):
      var text = "HTTP/1.1 \(status) Status\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n"
      for (name, value) in headers { text += "\(name): \(value)\r\n" }
      return sent(socket.write(text + "\r\n" + body))
    case .failing(let times, let status, let retryAfter, let body):
      guard servedBefore < times else {
        return sent(socket.write(okResponse(body, contentType: "image/png", etag: nil)))
      }
      var text = "HTTP/1.1 \(status) Unavailable\r\nContent-Length: 0\r\n"
      if let retryAfter { text += "Retry-After: \(retryAfter)\r\n" }
      return sent(socket.write(text + "\r\n"))
    case .slowloris(let body, let interval):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(body.count)\r\n\r\n"
      guard socket.write(head) else { return .clientClosed }
      for byte in body {
        guard socket.write(Data([byte])) else { return .clientClosed }
        if socket.waitForClose(milliseconds: interval.wholeMilliseconds) { return .clientClosed }
      }
      return .keepAlive
    case .slowHead(let body, let interval):
      let response = okResponse(body, contentType: "image/png", etag: nil)
      for byte in response {
        guard socket.write(Data([byte])) else { return .clientClosed }
        if socket.waitForClose(milliseconds: interval.wholeMilliseconds) { return .clientClosed }
      }
      return .keepAlive
    case .chunked(let body, let pieces, let trailer):
      var head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n"
      if trailer { head += "Trailer: X-Checksum\r\n" }
      var response = Data((head + "\r\n").utf8)
      let size = (body.count + pieces - 1) / max(1, pieces)
      var offset = body.startIndex
      while offset < body.endIndex {
        let piece = body[offset..<min(offset + size, body.endIndex)]
        response += Data((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Data("\r\n".utf8)
        offset += piece.count
      }
      response += Data(("0\r\n" + (trailer ? "X-Checksum: abc123\r\n" : "") + "\r\n").utf8)
      return sent(socket.write(response))
    case .html(let page):
      let body = Data(page.utf8)
      return sent(socket.write(okResponse(body, contentType: "text/html; charset=utf-8", etag: nil)))
    }
  }
}
