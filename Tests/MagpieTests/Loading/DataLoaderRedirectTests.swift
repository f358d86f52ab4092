import Foundation
import Magpie
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension DataLoaderTests {
  /// Redirects: followed to the limit, loops stopped, the handler obeyed,
  /// credentials kept from other origins.
  @Suite("Redirects")
  struct Redirects {
    @Test("A chain of redirects is followed to the image", arguments: LoaderKind.allCases)
    func chainFollowed(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let body = pngLikeBytes(5000)
      origin.route("/a", .redirect(status: 301, location: "/b"))
      origin.route("/b", .redirect(status: 302, location: origin.url("/c").absoluteString))
      origin.route("/c", .redirect(status: 307, location: "img?x=1"))
      origin.route("/img", .ok(body))
      let outcome = await LoadOutcome.load(origin.url("/a"), with: kind.make(quickConfiguration()))
      #expect(outcome.error == nil)
      #expect(outcome.body == body)
      #expect(outcome.response?.url == origin.url("/img?x=1"))
      #expect(origin.requestCount("/img") == 1)
    }

    @Test("Redirects up to the limit succeed, one more fails", arguments: LoaderKind.allCases)
    func limit(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      for hop in 0..<3 { origin.route("/hop\(hop)", .redirect(status: 302, location: "/hop\(hop + 1)")) }
      origin.route("/hop3", .ok(pngLikeBytes(100)))
      var configuration = quickConfiguration()
      configuration.maximumRedirects = 3
      let within = await LoadOutcome.load(origin.url("/hop0"), with: kind.make(configuration))
      #expect(within.error == nil)
      configuration.maximumRedirects = 2
      let beyond = await LoadOutcome.load(origin.url("/hop0"), with: kind.make(configuration))
      #expect(beyond.error?.code == .invalidResponse)
      #expect(beyond.error?.reason.contains("more than 2 redirects") == true)
    }

    @Test("A redirect loop fails after the limit", arguments: LoaderKind.allCases)
    func loop(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/ping", .redirect(status: 302, location: "/pong"))
      origin.route("/pong", .redirect(status: 302, location: "/ping"))
      let outcome = await LoadOutcome.load(origin.url("/ping"), with: kind.make(quickConfiguration()))
      #expect(outcome.error?.code == .invalidResponse)
      #expect(outcome.error?.reason.contains("redirect loop") == true)
      // The default limit is 10: 11 requests, the last one not followed.
      #expect(origin.requestCount("/ping") + origin.requestCount("/pong") == 11)
    }

    @Test("The redirect handler can refuse", arguments: LoaderKind.allCases)
    func handlerRefuses(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/from", .redirect(status: 302, location: "/to"))
      origin.route("/to", .ok(pngLikeBytes(100)))
      let seen = Lock<[HTTPRedirect]>([])
      var configuration = quickConfiguration()
      configuration.redirectHandler = { redirect in
        seen.withLock { $0.append(redirect) }
        return .refuse
      }
      let outcome = await LoadOutcome.load(origin.url("/from"), with: kind.make(configuration))
      #expect(outcome.error?.code == .httpStatus)
      #expect(outcome.error?.statusCode == 302)
      #expect(outcome.error?.refusal == .redirectHandler)
      #expect(origin.requestCount("/to") == 0)
      let redirects = seen.withLock { $0 }
      #expect(redirects.count == 1)
      #expect(redirects.first?.number == 1)
      #expect(redirects.first?.response.statusCode == 302)
      #expect(redirects.first?.proposedRequest.url == origin.url("/to"))
      #expect(redirects.first?.originalRequest.url == origin.url("/from"))
    }

    @Test("The redirect handler can change the next request", arguments: LoaderKind.allCases)
    func handlerModifies(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let body = pngLikeBytes(700)
      origin.route("/from", .redirect(status: 302, location: "/to"))
      origin.route("/elsewhere", .ok(body))
      var configuration = quickConfiguration()
      let target = origin.url("/elsewhere")
      configuration.redirectHandler = { redirect in
        // Decided asynchronously, as a real handler might.
        await Task.yield()
        var request = redirect.proposedRequest
        request.url = target
        request.setValue("yes", forHTTPHeaderField: "X-Rewritten")
        return .followModified(request)
      }
      let outcome = await LoadOutcome.load(origin.url("/from"), with: kind.make(configuration))
      #expect(outcome.error == nil)
      #expect(outcome.body == body)
      #expect(origin.requests("/elsewhere").first?.headers["x-rewritten"] == "yes")
    }

    @Test("A redirect to another origin drops the Authorization header", arguments: LoaderKind.allCases)
    func credentialsStayHome(kind: LoaderKind) async throws {
      let home = try FaultOrigin()
      let other = try FaultOrigin()
      defer {
        home.stop()
        other.stop()
      }
      home.route("/start", .redirect(status: 302, location: other.url("/image").absoluteString))
      other.route("/image", .ok(pngLikeBytes(100)))
      var configuration = quickConfiguration()
      configuration.credentials = [.bearer("secret", host: "127.0.0.1")]
      let outcome = await LoadOutcome.load(home.url("/start"), with: kind.make(configuration))
      #expect(outcome.error == nil)
      #expect(home.requests("/start").first?.headers["authorization"] == "Bearer secret")
      // Same host, another port: another origin. The credentials are
      // configured for the host, so the loader adds them again there, but
      // what the first origin was sent is never carried over blindly.
      var modified = quickConfiguration()
      modified.requestModifiers = [.header("Authorization", "Bearer only-for-home")]
      let second = await LoadOutcome.load(home.url("/start"), with: kind.make(modified))
      #expect(second.error == nil)
      #expect(other.requests("/image").last?.headers["authorization"] == nil)
    }

    @Test("A redirect out of http(s) fails", arguments: LoaderKind.allCases)
    func nonHTTPRedirect(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/ftp", .redirect(status: 302, location: "ftp://127.0.0.1/file.png"))
      let outcome = await LoadOutcome.load(origin.url("/ftp"), with: kind.make(quickConfiguration()))
      #expect(outcome.error?.code == .invalidResponse)
      #expect(outcome.error?.reason.contains("not an http(s) URL") == true)
      #expect(outcome.error?.refusal == .redirectScheme)
    }
  }
}
