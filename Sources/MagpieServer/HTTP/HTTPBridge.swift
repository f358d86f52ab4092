import CMicroHTTPD
import Foundation
import Magpie

/// What libmicrohttpd's C callbacks reach: it turns a connection's first
/// call into a suspended connection and a task running the handler, and
/// the call after the resume into a queued response. Lives as long as the
/// server; MHD holds an unretained pointer to it.
final class HTTPBridge: Sendable {
  private let handler: HTTPServer.Handler
  private let immediate: HTTPServer.ImmediateHandler?
  private let state = Lock(State())

  private struct State {
    var table = InFlightTable()
    var pending: [ObjectIdentifier: PendingRequest] = [:]
    var drainWaiters: [CheckedContinuation<Void, Never>] = []
    /// The listening socket MHD gave back when it stopped accepting
    /// (`-1` when it had none); `nil` while it accepts.
    var listener: Int32?
    var quiesced = false
    var stopped = false
  }

  init(immediate: HTTPServer.ImmediateHandler?, handler: @escaping HTTPServer.Handler) {
    self.immediate = immediate
    self.handler = handler
  }

  /// The access handler: `connection`'s request, on its first call (the
  /// headers), for each piece of a body, and once the request is whole.
  ///
  /// The first call only decides; the response is queued, or the handler
  /// started and the connection suspended, on the call that says the
  /// request is whole (and the handler's response queued on the call after
  /// the resume). MHD sends a response queued on the first call and then
  /// closes the connection (it will not read past a request answered
  /// early), which cost every request a new connection.
  func access(
    _ connection: OpaquePointer, path: String, method: String, uploadSize: UnsafeMutablePointer<Int>,
    context: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  ) -> MHD_Result {
    guard let raw = context.pointee else {
      context.pointee = Unmanaged.passRetained(begin(connection, path: path, method: method)).toOpaque()
      return .YES
    }
    // A body's piece: read and dropped (the handlers answer GET and HEAD).
    if uploadSize.pointee != 0 {
      uploadSize.pointee = 0
      return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(raw).takeUnretainedValue()
    if let response = pending.response { return Self.queue(response, on: connection) }
    guard let request = pending.start() else { return .YES }  // suspended: the resume calls again
    // Suspended before the task starts: the task's resume can never come
    // first.
    MHD_suspend_connection(connection)
    let handle = ConnectionHandle(pointer: connection)
    let handler = self.handler
    pending.attach(
      Task {
        let response = await handler(request)
        pending.finish(with: response)
        handle.resume()
      })
    return .YES
  }

  /// The first call's decision: an answer now (immediate, or 503 while
  /// draining), or a counted request for the handler.
  private func begin(_ connection: OpaquePointer, path: String, method: String) -> PendingRequest {
    let request = HTTPRequest(method: method, path: path, headers: Self.headers(of: connection))
    // Answered on this thread when it needs no waiting: no suspend, no
    // task, no hand-off.
    if let immediate, !state.withLock({ $0.table.isDraining }), let response = immediate(request) {
      return PendingRequest(answer: response)
    }
    guard state.withLock({ $0.table.begin() }) == .accept else {
      return PendingRequest(
        answer: .text(503, "shutting down", headers: [("Retry-After", "1"), ("Connection", "close")]))
    }
    let pending = PendingRequest(request: request)
    state.withLock { $0.pending[ObjectIdentifier(pending)] = pending }
    return pending
  }

  /// The request-completed callback: the response went out or the
  /// connection closed.
  func completed(_ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
    guard let raw = context.pointee else { return }
    context.pointee = nil
    let pending = Unmanaged<PendingRequest>.fromOpaque(raw).takeRetainedValue()
    guard pending.counted else { return }
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.pending[ObjectIdentifier(pending)] = nil
      guard state.table.end() else { return [] }
      defer { state.drainWaiters = [] }
      return state.drainWaiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Stops `daemon` accepting connections and makes new requests get a
  /// 503. Quiescing stops accepting; shutting the socket down as well makes
  /// the kernel refuse connections at once instead of queueing them in the
  /// backlog until they time out. MHD may still touch the descriptor until
  /// it stops, so it is closed only after that.
  func stopAccepting(_ daemon: DaemonHandle) {
    let first = state.withLock { state -> Bool in
      _ = state.table.drain()
      guard !state.quiesced else { return false }
      state.quiesced = true
      return true
    }
    // Outside the lock: MHD's threads take it in the access handler.
    guard first else { return }
    let socket = MHD_quiesce_daemon(daemon.pointer)
    if socket >= 0 { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
    state.withLock { $0.listener = socket }
  }

  /// Whether the daemon was stopped.
  var isStopped: Bool { state.withLock { $0.stopped } }

  /// Marks the daemon stopped; the listening socket to close, or `nil`
  /// when another caller stopped it already.
  func markStopped() -> Int32? {
    state.withLock { state in
      guard !state.stopped else { return nil }
      state.stopped = true
      return state.listener ?? -1
    }
  }

  /// Refuses new requests and returns when every request in flight has
  /// been answered.
  func drain() async {
    await withCheckedContinuation { continuation in
      let idle = state.withLock { state -> Bool in
        let idle = state.table.drain()
        if !idle { state.drainWaiters.append(continuation) }
        return idle
      }
      if idle { continuation.resume() }
    }
  }

  /// Cancels every handler still running (after a drain's grace ran out).
  func cancelAll() {
    for pending in state.withLock({ Array($0.pending.values) }) { pending.cancel() }
  }

  /// How many requests are in flight.
  var inFlight: Int { state.withLock { $0.table.count } }

  /// MHD_RESPMEM_MUST_COPY (2): the body is copied, so the response's
  /// `Data` need not outlive the call. (Swift imports the closed C enum
  /// with case names it cannot spell from the header.)
  private static let mustCopy = MHD_ResponseMemoryMode(rawValue: 2)!

  private static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let made = response.body.withUnsafeBytes { bytes in
      MHD_create_response_from_buffer(
        bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), Self.mustCopy)
    }
    guard let made else { return .NO }
    defer { MHD_destroy_response(made) }
    for (name, value) in response.headers where MHD_add_response_header(made, name, value) != .YES {
      return .NO
    }
    return MHD_queue_response(connection, UInt32(response.status), made)
  }

  private static func headers(of connection: OpaquePointer) -> [String: String] {
    final class Collected { var fields: [String: String] = [:] }
    let collected = Collected()
    let visit: MHD_KeyValueIterator = { cls, _, key, value in
      guard let cls, let key else { return .YES }
      let box = Unmanaged<Collected>.fromOpaque(cls).takeUnretainedValue()
      let name = String(cString: key).lowercased()
      let text = value.map { String(cString: $0) } ?? ""
      box.fields[name] = box.fields[name].map { "\($0), \(text)" } ?? text
      return .YES
    }
    withExtendedLifetime(collected) {
      _ = MHD_get_connection_values(
        connection, .HEADER_KIND, visit, Unmanaged.passUnretained(collected).toOpaque())
    }
    return collected.fields
  }
}
