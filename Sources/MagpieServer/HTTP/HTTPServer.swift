import CMagpieHTTPD
import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP/1.1 server on GNU libmicrohttpd: an epoll thread pool accepts
/// and parses, keeps connections alive, and suspends each connection while
/// its request waits on ``Handler``, so no thread is held by a slow
/// transform.
///
/// ```swift
/// let server = try HTTPServer(port: 8080) { request in
///   .text(200, "hello")
/// }
/// // …
/// await server.shutdown(grace: .seconds(30))
/// ```
public final class HTTPServer: Sendable {
  /// Answers one request.
  public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse
  /// Answers a request at once on the network thread, or returns `nil` to
  /// hand it to the ``Handler``. It must not block.
  public typealias ImmediateHandler = @Sendable (HTTPRequest) -> HTTPResponse?

  /// The port it listens on (the one the system chose when 0 was asked).
  public let port: Int
  /// The address it listens on.
  public let host: String
  private let bridge: HTTPBridge
  private let daemon: DaemonHandle

  /// Starts listening on `host` (an IPv4 or IPv6 literal) and `port` (0:
  /// any free port) with `threads` network threads; connections idle for
  /// `idleTimeout` are closed, and at most `connectionLimit` are open at
  /// once. `immediate`, when given, answers first what needs no waiting.
  public init(
    host: String = "127.0.0.1", port: Int = 0, threads: Int = 2, idleTimeout: Duration = .seconds(30),
    connectionLimit: Int = 1024, immediate: ImmediateHandler? = nil, handler: @escaping Handler
  ) throws(ServeError) {
    guard (0...65535).contains(port) else { throw ServeError("port \(port) is not 0-65535") }
    let bridge = HTTPBridge(immediate: immediate, handler: handler)
    // MHD's threads call into the bridge until the daemon stops, whoever
    // still holds the server: the daemon holds a reference of its own,
    // given back after MHD_stop_daemon.
    let context = Unmanaged.passRetained(bridge).toOpaque()
    guard
      let daemon = mp_httpd_start(
        host, UInt16(port), UInt32(max(1, threads)), UInt32(max(1, idleTimeout.components.seconds)),
        UInt32(max(1, connectionLimit)), httpAccess, context, httpCompleted, context)
    else {
      Unmanaged.passUnretained(bridge).release()
      throw ServeError("cannot listen on \(host):\(port): \(String(cString: strerror(errno)))")
    }
    self.bridge = bridge
    self.daemon = DaemonHandle(pointer: daemon)
    self.host = host
    self.port = Int(mp_httpd_port(daemon))
  }

  /// How many requests are being answered now.
  public var inFlight: Int { bridge.inFlight }

  /// Stops accepting connections and refuses new requests on open ones
  /// (503 with `Connection: close`); requests in flight go on. Called
  /// again, it does nothing.
  public func stopAccepting() { bridge.stopAccepting(daemon) }

  /// Stops accepting (``stopAccepting()``), waits for the requests in
  /// flight to be answered, at most `grace` (then their handlers are
  /// cancelled and answer at once), and stops the threads.
  public func shutdown(grace: Duration) async { await Self.stop(daemon, bridge, grace: grace) }

  /// A server dropped without ``shutdown(grace:)`` is shut down in the
  /// background with no grace: its threads must not outlive it unseen.
  deinit {
    let daemon = self.daemon
    let bridge = self.bridge
    if !bridge.isStopped { Task.detached { await Self.stop(daemon, bridge, grace: .zero) } }
  }

  private static func stop(_ daemon: DaemonHandle, _ bridge: HTTPBridge, grace: Duration) async {
    bridge.stopAccepting(daemon)
    let watchdog = Task {
      try? await Task.sleep(for: grace)
      if !Task.isCancelled { bridge.cancelAll() }
    }
    await bridge.drain()
    watchdog.cancel()
    guard let listener = bridge.markStopped() else { return }
    MHD_stop_daemon(daemon.pointer)
    if listener >= 0 { close(listener) }
    Unmanaged.passUnretained(bridge).release()  // the daemon's reference
  }
}

/// The daemon pointer; MHD's own locks make its calls safe from any thread.
struct DaemonHandle: @unchecked Sendable {
  let pointer: OpaquePointer
}

private let httpAccess: MHD_AccessHandlerCallback = { cls, connection, url, method, _, _, uploadSize, context in
  guard let cls, let connection, let url, let method, let uploadSize, let context else { return .NO }
  return Unmanaged<HTTPBridge>.fromOpaque(cls).takeUnretainedValue().access(
    connection, path: String(cString: url), method: String(cString: method), uploadSize: uploadSize,
    context: context)
}

private let httpCompleted: MHD_RequestCompletedCallback = { cls, _, context, _ in
  guard let cls, let context else { return }
  Unmanaged<HTTPBridge>.fromOpaque(cls).takeUnretainedValue().completed(context)
}
