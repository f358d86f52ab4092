import Foundation
import Magpie
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension DataLoaderTests {
  /// What reaches the origin: request modifiers, in order, and credentials.
  @Suite("Requests")
  struct Requests {
    @Test("Modifiers run in order, sync and async, and reach the origin", arguments: LoaderKind.allCases)
    func modifiers(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/img", .ok(pngLikeBytes(100)))
      let calls = Lock(0)
      var configuration = quickConfiguration()
      configuration.requestModifiers = [
        .header("X-Order", "first"),
        .headers(["X-Client": "magpie-tests", "Accept": "image/webp,image/*"]),
        RequestModifier { request in
          // Sees the earlier modifiers' work, then overrides it.
          #expect(request.value(forHTTPHeaderField: "X-Order") == "first")
          request.setValue("second", forHTTPHeaderField: "X-Order")
        },
        RequestModifier(async: { request in
          calls.withLock { $0 += 1 }
          await Task.yield()
          var request = request
          request.url = request.url.map { URL(string: $0.absoluteString + "?signed=1")! }
          return request
        }),
        .bearerToken { "token-\(calls.withLock { $0 })" },
      ]
      let outcome = await LoadOutcome.load(origin.url("/img"), with: kind.make(configuration))
      #expect(outcome.error == nil)
      let request = try #require(origin.requests("/img").first)
      #expect(request.target == "/img?signed=1")
      #expect(request.headers["x-order"] == "second")
      #expect(request.headers["x-client"] == "magpie-tests")
      #expect(request.headers["accept"] == "image/webp,image/*")
      #expect(request.headers["authorization"] == "Bearer token-1")
    }

    @Test("A throwing modifier fails the load before any request", arguments: LoaderKind.allCases)
    func throwingModifier(kind: LoaderKind) async throws {
      struct NoToken: Error {}
      let origin = try FaultOrigin()
      defer { origin.stop() }
      var configuration = quickConfiguration()
      configuration.requestModifiers = [RequestModifier(async: { _ in throw NoToken() })]
      let outcome = await LoadOutcome.load(origin.url("/img"), with: kind.make(configuration))
      #expect(outcome.error?.code == .invalidArgument)
      #expect(outcome.error?.reason.contains("request modifier") == true)
      #expect(origin.requestCount("/img") == 0)
    }

    @Test("Basic credentials are sent to their host only", arguments: LoaderKind.allCases)
    func basicCredentials(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/img", .ok(pngLikeBytes(100)))
      var configuration = quickConfiguration()
      configuration.credentials = [
        .basic(user: "someone", password: "elsewhere", host: "example.com"),
        .basic(user: "alice", password: "s3cret:!", host: "127.0.0.1"),
      ]
      let outcome = await LoadOutcome.load(origin.url("/img"), with: kind.make(configuration))
      #expect(outcome.error == nil)
      // "alice:s3cret:!" in Base64.
      #expect(origin.requests("/img").first?.headers["authorization"] == "Basic YWxpY2U6czNjcmV0OiE=")
    }

    @Test("An Authorization header set by a modifier wins over credentials", arguments: LoaderKind.allCases)
    func modifierWins(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/img", .ok(pngLikeBytes(100)))
      var configuration = quickConfiguration()
      configuration.credentials = [.bearer("configured")]
      configuration.requestModifiers = [.header("Authorization", "Bearer from-modifier")]
      _ = await LoadOutcome.load(origin.url("/img"), with: kind.make(configuration))
      #expect(origin.requests("/img").first?.headers["authorization"] == "Bearer from-modifier")
    }

    @Test("Method and headers of the request itself are sent", arguments: LoaderKind.allCases)
    func requestItself(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/img", .ok(pngLikeBytes(100)))
      var request = URLRequest(url: origin.url("/img"))
      request.httpMethod = "HEAD"
      request.setValue("Fri, 01 Jan 2021 00:00:00 GMT", forHTTPHeaderField: "If-Modified-Since")
      let outcome = await LoadOutcome.load(request, with: kind.make(quickConfiguration()))
      #expect(outcome.error == nil)
      #expect(outcome.response?.statusCode == 200)
      #expect(outcome.body.isEmpty)
      let seen = try #require(origin.requests("/img").first)
      #expect(seen.method == "HEAD")
      #expect(seen.headers["if-modified-since"] == "Fri, 01 Jan 2021 00:00:00 GMT")
    }
  }
}
