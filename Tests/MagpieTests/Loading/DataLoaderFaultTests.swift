import Foundation
import Magpie
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension DataLoaderTests {
  /// Faults of a misbehaving server, each ending in the right typed error
  /// within its timeout, on every loader.
  @Suite("Faults and timeouts")
  struct Faults {
    @Test("A good answer streams the body with monotonic progress", arguments: LoaderKind.allCases)
    func goodAnswer(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let body = pngLikeBytes(300_000)
      origin.route("/image.png", .ok(body))
      let outcome = await LoadOutcome.load(origin.url("/image.png"), with: kind.make(quickConfiguration()))
      #expect(outcome.error == nil)
      #expect(outcome.response?.statusCode == 200)
      #expect(outcome.body == body)
      #expect(outcome.events.first == "response")
      #expect(!outcome.progress.isEmpty)
      #expect(outcome.progress.allSatisfy { $0.expected == Int64(body.count) })
      #expect(zip(outcome.progress, outcome.progress.dropFirst()).allSatisfy { $0.received < $1.received })
      #expect(outcome.progress.last?.received == Int64(body.count))
    }

    @Test("A server that never answers is cut off at the idle timeout", arguments: LoaderKind.allCases)
    func stallBeforeHeaders(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/stall", .stall)
      let outcome = await LoadOutcome.load(
        origin.url("/stall"), with: kind.make(quickConfiguration(timeout: .milliseconds(600))))
      #expect(outcome.error?.code == .timedOut)
      #expect(outcome.error?.reason.contains("timeout") == true)
      #expect(outcome.elapsed >= .milliseconds(500))
      #expect(outcome.elapsed < .seconds(10))
      // The loader hangs up on the stalled server.
      #expect(await origin.waitForClientClose("/stall"))
    }

    @Test("A body that stops halfway is cut off at the idle timeout", arguments: LoaderKind.allCases)
    func stallMidBody(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/half", .stallMidBody(pngLikeBytes(200_000), sent: 50_000))
      let outcome = await LoadOutcome.load(
        origin.url("/half"), with: kind.make(quickConfiguration(timeout: .milliseconds(600))))
      #expect(outcome.error?.code == .timedOut)
      // A whole body's response comes with it, so not at all here.
      #expect(outcome.response?.statusCode == (kind.streams ? 200 : nil))
      #expect(outcome.body.count <= 50_000)
      #expect(outcome.elapsed >= .milliseconds(500))
      #expect(outcome.elapsed < .seconds(10))
      #expect(await origin.waitForClientClose("/half"))
    }

    @Test("A slow start within the timeout still succeeds", arguments: LoaderKind.allCases)
    func delayWithinTimeout(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let body = pngLikeBytes(1000)
      origin.route("/late", .delayHeaders(.milliseconds(300), body))
      let outcome = await LoadOutcome.load(origin.url("/late"), with: kind.make(quickConfiguration()))
      #expect(outcome.error == nil)
      #expect(outcome.body == body)
      #expect(outcome.elapsed >= .milliseconds(250))
    }

    @Test("A slowloris server trickling bytes is cut off at the total timeout", arguments: LoaderKind.allCases)
    func slowloris(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      // A byte every 100 ms never trips the 5 s idle limit; the 1.5 s total
      // limit ends it.
      origin.route("/slow", .slowloris(pngLikeBytes(1000), interval: .milliseconds(100)))
      let configuration = quickConfiguration(timeout: .seconds(5), resourceTimeout: .milliseconds(1500))
      let outcome = await LoadOutcome.load(origin.url("/slow"), with: kind.make(configuration))
      #expect(outcome.error?.code == .timedOut)
      #expect(outcome.error?.reason.contains("resourceTimeout") == true)
      #expect(outcome.elapsed >= .milliseconds(1400))
      #expect(outcome.elapsed < .seconds(10))
      #expect(await origin.waitForClientClose("/slow"))
    }

    @Test("A head trickled byte by byte is cut off too", arguments: LoaderKind.allCases)
    func slowHead(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      // Idle time counts from the last header line or body bytes delivered,
      // so a head that never completes a line trips the idle limit.
      origin.route("/slowhead", .slowHead(pngLikeBytes(1000), interval: .milliseconds(100)))
      let configuration = quickConfiguration(timeout: .seconds(1), resourceTimeout: .seconds(30))
      let outcome = await LoadOutcome.load(origin.url("/slowhead"), with: kind.make(configuration))
      #expect(outcome.error?.code == .timedOut)
      #expect(outcome.response == nil)
      #expect(outcome.elapsed < .seconds(10))
      #expect(await origin.waitForClientClose("/slowhead"))
    }

    @Test("A request's own shorter timeoutInterval wins", arguments: LoaderKind.allCases)
    func requestTimeoutInterval(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/stall", .stall)
      var request = URLRequest(url: origin.url("/stall"))
      request.timeoutInterval = 0.5
      let outcome = await LoadOutcome.load(request, with: kind.make(quickConfiguration(timeout: .seconds(30))))
      #expect(outcome.error?.code == .timedOut)
      #expect(outcome.elapsed < .seconds(10))
    }

    @Test("A connection reset mid-body is a network error", arguments: LoaderKind.allCases)
    func dropMidBody(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/drop", .dropMidBody(pngLikeBytes(200_000), after: 20_000))
      let outcome = await LoadOutcome.load(origin.url("/drop"), with: kind.make(quickConfiguration()))
      #expect(outcome.error?.code == .network)
      #expect(outcome.elapsed < .seconds(10))
    }

    @Test("A body shorter than its Content-Length is an error, not a truncated image", arguments: LoaderKind.allCases)
    func shortBody(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/short", .shortBody(pngLikeBytes(10_000), declared: 20_000))
      let outcome = await LoadOutcome.load(origin.url("/short"), with: kind.make(quickConfiguration()))
      #expect(outcome.error?.code == .invalidResponse)
      #expect(outcome.error?.reason.contains("ended after 10000 of the 20000 bytes") == true)
      #expect(outcome.body.count <= 10_000)
      #expect(outcome.elapsed < .seconds(10))
    }

    @Test("An endless body stops at the size cap", arguments: LoaderKind.allCases)
    func endlessBodyHitsCap(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/endless", .endless(prefix: pngLikeBytes(100)))
      var configuration = quickConfiguration()
      configuration.maximumBodySize = 1 << 20
      let outcome = await LoadOutcome.load(origin.url("/endless"), with: kind.make(configuration))
      #expect(outcome.error?.code == .invalidResponse)
      #expect(outcome.error?.reason.contains("maximumBodySize") == true)
      #expect(outcome.body.count <= 1 << 20)
      // The transfer is cancelled: the origin sees the connection go.
      if kind.closesEndlessBodyPromptly { #expect(await origin.waitForClientClose("/endless")) }
    }

    @Test("An announced body over the cap fails before the body is read", arguments: LoaderKind.allCases)
    func announcedBodyOverCap(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/big", .ok(pngLikeBytes(2_000_000)))
      var configuration = quickConfiguration()
      configuration.maximumBodySize = 1_000_000
      let outcome = await LoadOutcome.load(origin.url("/big"), with: kind.make(configuration))
      #expect(outcome.error?.code == .invalidResponse)
      #expect(outcome.error?.reason.contains("announced a 2000000-byte body") == true)
      #expect(outcome.error?.refusal == .maximumBodySize)
      #expect(outcome.body.isEmpty)
    }

    @Test("Nothing listening is a network error", arguments: LoaderKind.allCases)
    func connectionRefused(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      let url = origin.url("/gone")
      origin.stop()
      let outcome = await LoadOutcome.load(url, with: kind.make(quickConfiguration()))
      #expect(outcome.error?.code == .network)
    }

    @Test("A URL that is not http(s) is an invalid argument", arguments: LoaderKind.allCases)
    func unsupportedScheme(kind: LoaderKind) async throws {
      let outcome = await LoadOutcome.load(URL(string: "ftp://127.0.0.1/file.png")!, with: kind.make())
      #expect(outcome.error?.code == .invalidArgument)
    }
  }
}
