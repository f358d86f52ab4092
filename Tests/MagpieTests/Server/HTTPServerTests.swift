import Foundation
import MagpieServer
import Testing

@Suite("HTTPServer on libmicrohttpd")
struct HTTPServerTests {
  @Test("answers GET and HEAD with the handler's status, headers and body")
  func answers() async throws {
    let server = try HTTPServer { request in
      HTTPResponse(
        status: 201, headers: [("Content-Type", "text/plain"), ("X-Path", request.path)],
        body: Data("accept \(request.header("accept") ?? "-")".utf8))
    }
    let get = try await HTTPProbe.send(port: server.port, path: "/a%2Fb/c", headers: ["Accept": "image/webp"])
    #expect(get.status == 201)
    #expect(get.header("X-Path") == "/a%2Fb/c")  // escapes kept as sent
    #expect(String(decoding: get.body, as: UTF8.self) == "accept image/webp")
    let head = try await HTTPProbe.send(
      port: server.port, path: "/x", method: "HEAD", headers: ["Accept": "image/webp"])
    #expect(head.status == 201)
    #expect(head.body.isEmpty)
    #expect(head.header("Content-Length") == "\(get.body.count)")
    await server.shutdown(grace: .seconds(5))
  }

  @Test("a handler waiting does not hold a network thread: with one thread, a waiting request does not block another")
  func suspendsConnections() async throws {
    let gate = AsyncGate()
    let server = try HTTPServer(threads: 1) { request in
      if request.path == "/wait" { await gate.wait() }
      return .text(200, request.path)
    }
    let waiting = Task { try await HTTPProbe.send(port: server.port, path: "/wait") }
    try await gate.untilWaiting(1)
    let fast = try await HTTPProbe.send(port: server.port, path: "/fast")
    #expect(fast.status == 200)
    #expect(server.inFlight == 1)
    gate.open()
    #expect(try await waiting.value.status == 200)
    await server.shutdown(grace: .seconds(5))
  }

  @Test("shutdown answers the requests in flight and refuses new ones")
  func drains() async throws {
    let gate = AsyncGate()
    let server = try HTTPServer { request in
      if request.path == "/wait" { await gate.wait() }
      return .text(200, "done")
    }
    let port = server.port
    let inFlight = Task { try await HTTPProbe.send(port: port, path: "/wait") }
    try await gate.untilWaiting(1)
    server.stopAccepting()
    let stopped = Task { await server.shutdown(grace: .seconds(30)) }
    // A new connection is refused; a kept-alive one gets a 503.
    let late = try? await HTTPProbe.send(port: port, path: "/new")
    #expect(late == nil || late?.status == 503)
    gate.open()
    let answer = try await inFlight.value
    #expect(answer.status == 200)
    #expect(String(decoding: answer.body, as: UTF8.self) == "done\n")
    await stopped.value
  }

  @Test("a handler still running when the grace runs out is cancelled, answers, and the server stops")
  func graceRunsOut() async throws {
    let gate = AsyncGate()
    let server = try HTTPServer { _ in
      // Work far longer than the grace; only the cancellation ends it.
      await gate.wait()
      do { try await Task.sleep(for: .seconds(600)) } catch { return .text(503, "cancelled") }
      return .text(200, "done")
    }
    let port = server.port
    gate.open()
    let inFlight = Task { try await HTTPProbe.send(port: port, path: "/wait") }
    try await gate.untilWaiting(1)
    let stopped = Task { await server.shutdown(grace: .milliseconds(50)) }
    #expect(try await inFlight.value.status == 503)
    await stopped.value
  }

  @Test("a server dropped without shutdown stops in the background; its request in flight is still answered")
  func droppedServer() async throws {
    let gate = AsyncGate()
    var server: HTTPServer? = try HTTPServer { _ in
      await gate.wait()
      return .text(200, "done")
    }
    let port = server!.port
    let inFlight = Task { try await HTTPProbe.send(port: port, path: "/wait") }
    try await gate.untilWaiting(1)
    server = nil  // before the fix: MHD's threads called into a freed bridge
    gate.open()
    #expect(try await inFlight.value.status == 200)
    _ = server
  }
}
