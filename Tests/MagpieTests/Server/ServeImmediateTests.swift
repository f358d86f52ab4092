import Foundation
import Magpie
import Testing

@testable import MagpieServer

/// What needs no waiting is answered on the network thread: no handler
/// task, no DNS lookup for a result already in memory.
@Suite("Serve immediate answers")
struct ServeImmediateTests {
  @Test("an immediate answer never reaches the async handler; nil hands the request on")
  func serverFastPath() async throws {
    let handled = Lock<[String]>([])
    let server = try HTTPServer(immediate: { $0.path == "/fast" ? .text(200, "fast") : nil }) { request in
      handled.withLock { $0.append(request.path) }
      return .text(200, "slow")
    }
    let fast = try await HTTPProbe.send(port: server.port, path: "/fast")
    let slow = try await HTTPProbe.send(port: server.port, path: "/slow")
    #expect(String(decoding: fast.body, as: UTF8.self) == "fast\n")
    #expect(String(decoding: slow.body, as: UTF8.self) == "slow\n")
    #expect(handled.withLock { $0 } == ["/slow"])
    await server.shutdown(grace: .seconds(5))
  }

  @Test("immediate and handled answers alike keep the connection open for the next request")
  func keepAlive() async throws {
    let server = try HTTPServer(immediate: { $0.path == "/fast" ? .text(200, "fast") : nil }) { _ in
      .text(200, "slow")
    }
    // Before: MHD closed the connection after every immediate answer, which
    // it had been handed on the request's first call.
    let answers = try await HTTPProbe.sendKeepingAlive(
      port: server.port, paths: ["/fast", "/fast", "/slow", "/fast", "/slow", "/slow"])
    #expect(
      answers.map { String(decoding: $0.body, as: UTF8.self) } == [
        "fast\n", "fast\n", "slow\n", "fast\n", "slow\n", "slow\n",
      ])
    #expect(answers.allSatisfy { $0.header("Connection")?.lowercased() != "close" })
    await server.shutdown(grace: .seconds(5))
  }

  @Test("a memory hit is immediate (synchronous: no resolver, no queue); a miss is not; bad URLs are answered at once")
  func serviceFastPath() async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    origin.route("/a.png", .ok(try Data(contentsOf: TestPaths.photo("birds"))))
    let service = try ImageService(configuration: ServeHarness.configuration())
    let path = ServeHarness.path(ServeHarness.fit(12, 12), URL(string: "http://127.0.0.1:\(origin.port)/a.png")!)
    let request = HTTPRequest(method: "GET", path: path, headers: ["Accept": "image/webp"])
    #expect(service.immediateResponse(to: request) == nil)
    #expect(await service.respond(to: request).status == 200)
    let hit = try #require(service.immediateResponse(to: request))
    #expect(hit.status == 200 && hit.header("Content-Type") == "image/webp")
    #expect(origin.requests("/a.png").count == 1)
    #expect(service.immediateResponse(to: HTTPRequest(method: "GET", path: "/bad"))?.status == 403)
    var blurred = ServeHarness.fit(12, 12)
    blurred.blurSigma = TransformURLLimits.maximumSigma * 2
    let badPath = ServeHarness.path(blurred, URL(string: "http://127.0.0.1:\(origin.port)/a.png")!)
    #expect(service.immediateResponse(to: HTTPRequest(method: "GET", path: badPath))?.status == 400)
    #expect(service.immediateResponse(to: HTTPRequest(method: "POST", path: "/health"))?.status == 405)
  }
}
