import Foundation
import Magpie
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension DataLoaderTests {
  /// Status codes, Retry-After, HTML error pages and conditional requests.
  @Suite("Statuses and content")
  struct Statuses {
    @Test("A 404 is an HTTP status error without Retry-After", arguments: LoaderKind.allCases)
    func notFound(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let outcome = await LoadOutcome.load(origin.url("/missing.png"), with: kind.make(quickConfiguration()))
      #expect(outcome.error?.code == .httpStatus)
      #expect(outcome.error?.statusCode == 404)
      #expect(outcome.error?.retryAfter == nil)
      #expect(outcome.error?.reason.contains("404 Not Found") == true)
    }

    @Test("A 503 carries Retry-After in seconds", arguments: LoaderKind.allCases)
    func unavailableSeconds(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/busy", .status(503, headers: ["Retry-After": "120"]))
      let outcome = await LoadOutcome.load(origin.url("/busy"), with: kind.make(quickConfiguration()))
      #expect(outcome.error?.code == .httpStatus)
      #expect(outcome.error?.statusCode == 503)
      #expect(outcome.error?.retryAfter == .seconds(120))
    }

    @Test("A 429 carries Retry-After as an HTTP date", arguments: LoaderKind.allCases)
    func tooManyRequestsDate(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
      let date = formatter.string(from: Date().addingTimeInterval(90))
      origin.route("/slow-down", .status(429, headers: ["Retry-After": date]))
      let outcome = await LoadOutcome.load(origin.url("/slow-down"), with: kind.make(quickConfiguration()))
      #expect(outcome.error?.statusCode == 429)
      let wait = try #require(outcome.error?.retryAfter)
      #expect(wait > .seconds(80) && wait <= .seconds(91))
    }

    @Test("A server that fails twice with 503 then recovers", arguments: LoaderKind.allCases)
    func recovers(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let body = pngLikeBytes(2000)
      origin.route("/flaky", .failing(times: 2, status: 503, retryAfter: "1", then: body))
      let loader = kind.make(quickConfiguration())
      for _ in 0..<2 {
        let failed = await LoadOutcome.load(origin.url("/flaky"), with: loader)
        #expect(failed.error?.statusCode == 503)
        #expect(failed.error?.retryAfter == .seconds(1))
      }
      let recovered = await LoadOutcome.load(origin.url("/flaky"), with: loader)
      #expect(recovered.error == nil)
      #expect(recovered.body == body)
      #expect(origin.requestCount("/flaky") == 3)
    }

    @Test("An HTML page sent with 200 is rejected as not an image", arguments: LoaderKind.allCases)
    func htmlErrorPage(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let page = "<!DOCTYPE html><html><head><title>Oops</title></head><body>" + String(repeating: "x", count: 5000)
      origin.route("/photo.jpg", .html(page + "</body></html>"))
      let outcome = await LoadOutcome.load(origin.url("/photo.jpg"), with: kind.make(quickConfiguration()))
      #expect(outcome.error?.code == .invalidResponse)
      #expect(outcome.error?.reason.contains("text/html") == true)
      #expect(outcome.error?.reason.contains("not an image") == true)
      #expect(outcome.error?.reason.contains("<!DOCTYPE html>") == true)
      #expect(outcome.body.isEmpty)
    }

    @Test("A short SVG document is an image", arguments: LoaderKind.allCases)
    func svgAccepted(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let svg = Data("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)
      origin.route("/icon.svg", .ok(svg, contentType: "image/svg+xml"))
      let outcome = await LoadOutcome.load(origin.url("/icon.svg"), with: kind.make(quickConfiguration()))
      #expect(outcome.error == nil)
      #expect(outcome.body == svg)
    }

    @Test("With image checks off, any 2xx body passes", arguments: LoaderKind.allCases)
    func checksOff(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/page", .html("<html>hello</html>"))
      var configuration = quickConfiguration()
      configuration.requiresImageContent = false
      let outcome = await LoadOutcome.load(origin.url("/page"), with: kind.make(configuration))
      #expect(outcome.error == nil)
      #expect(outcome.body == Data("<html>hello</html>".utf8))
    }

    @Test("An empty 200 is not an image", arguments: LoaderKind.allCases)
    func emptyBody(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/empty", .ok(Data()))
      let outcome = await LoadOutcome.load(origin.url("/empty"), with: kind.make(quickConfiguration()))
      #expect(outcome.error?.code == .invalidResponse)
      #expect(outcome.error?.reason.contains("empty body") == true)
    }

    @Test("A chunked body, trailer and all, arrives whole without an expected length", arguments: LoaderKind.allCases)
    func chunked(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let body = pngLikeBytes(50_000)
      // FoundationNetworking on Linux dies on a trailer field ("Transfer
      // completed, but there's no response", a fatalError inside it), so
      // the URLSession loader gets the chunks without one.
      origin.route("/chunked", .chunked(body, pieces: 5, trailer: kind.isCurl))
      origin.route("/again", .ok(pngLikeBytes(10)))
      let loader = kind.make(quickConfiguration())
      let outcome = await LoadOutcome.load(origin.url("/chunked"), with: loader)
      #expect(outcome.error == nil)
      #expect(outcome.body == body)
      #expect(outcome.events.filter { $0 == "response" }.count == 1)
      #expect(outcome.progress.allSatisfy { $0.expected == nil })
      #expect(outcome.progress.last?.received == Int64(body.count))
      // The connection is still good for the next request.
      let next = await LoadOutcome.load(origin.url("/again"), with: loader)
      #expect(next.error == nil)
    }

    @Test("A 304 to a conditional request ends cleanly with no body", arguments: LoaderKind.allCases)
    func notModified(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let body = pngLikeBytes(3000)
      origin.route("/cached.png", .ok(body, etag: "\"v1\""))
      let loader = kind.make(quickConfiguration())
      let first = await LoadOutcome.load(origin.url("/cached.png"), with: loader)
      let etag = try #require(first.response?.value(forHTTPHeaderField: "ETag"))
      #expect(etag == "\"v1\"")
      var request = URLRequest(url: origin.url("/cached.png"))
      request.setValue(etag, forHTTPHeaderField: "If-None-Match")
      let second = await LoadOutcome.load(request, with: loader)
      #expect(second.error == nil)
      #expect(second.response?.statusCode == 304)
      #expect(second.events == ["response"])
      #expect(origin.requests("/cached.png").last?.headers["if-none-match"] == "\"v1\"")
      // A changed resource answers 200 with the new body.
      request.setValue("\"v0\"", forHTTPHeaderField: "If-None-Match")
      let changed = await LoadOutcome.load(request, with: loader)
      #expect(changed.response?.statusCode == 200)
      #expect(changed.body == body)
    }

    @Test("A 304 to a request that was not conditional is an error", arguments: LoaderKind.allCases)
    func unexpectedNotModified(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/odd", .status(304))
      let outcome = await LoadOutcome.load(origin.url("/odd"), with: kind.make(quickConfiguration()))
      #expect(outcome.error?.code == .httpStatus)
      #expect(outcome.error?.statusCode == 304)
    }
  }
}
