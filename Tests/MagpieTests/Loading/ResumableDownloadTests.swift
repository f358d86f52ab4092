import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Resumable downloads (issue 35, item 1): a body cut part-way is
/// finished with one ranged request whose bytes join what was kept; a
/// resource that changed in between is fetched whole; the kept bytes
/// outlive a load whose retries are spent; and the rules that keep two
/// versions from being spliced, as values.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct ResumableDownloadTests {
  private let photo: Data
  private let other: Data

  init() throws {
    photo = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/photo-00.jpg"))
    other = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/photo-01.jpg"))
  }

  private func downloader(
    _ kind: LoaderKind, retries: RetryPolicy = RetryPolicy(maximumAttempts: 2), resumes: Bool = true
  ) -> ImageDownloader {
    var configuration = ImageDownloader.Configuration(
      dataLoader: kind.make(), retryPolicy: retries, rateLimit: nil, sleep: { _ in })
    configuration.resumesDownloads = resumes
    return ImageDownloader(configuration: configuration)
  }

  private var cut: Int { photo.count * 6 / 10 }

  @Test(arguments: [LoaderKind.curl, .urlSession])
  func aBodyCutAt60PercentIsFinishedByOneRangedRequest(_ kind: LoaderKind) async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    origin.route("/photo.jpg", .resumable(photo, etag: "\"v1\"", cutAt: cut))
    let response = try await downloader(kind).data(for: URLRequest(url: origin.url("/photo.jpg")))
    #expect(response.data == photo)
    #expect(response.response.statusCode == 200)
    #expect(response.metrics.attempts == 2)
    let requests = origin.requests("/photo.jpg")
    #expect(requests.count == 2)
    #expect(requests.first?.headers["range"] == nil)
    #expect(requests.last?.headers["range"] == "bytes=\(cut)-")
    #expect(requests.last?.headers["if-range"] == "\"v1\"")
  }

  @Test func aResourceThatChangedBetweenTheAttemptsIsFetchedWhole() async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    origin.route("/photo.jpg", .resumable(photo, etag: "\"v1\"", cutAt: cut, changedTo: other))
    let response = try await downloader(.curl).data(for: URLRequest(url: origin.url("/photo.jpg")))
    #expect(response.data == other)
    #expect(origin.requests("/photo.jpg").last?.headers["range"] == "bytes=\(cut)-")
  }

  @Test func theKeptBytesServeTheNextLoadWhenTheRetriesAreSpent() async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    origin.route("/photo.jpg", .resumable(photo, etag: "\"v1\"", cutAt: cut))
    let downloader = downloader(.curl, retries: .never)
    let url = origin.url("/photo.jpg")
    await #expect(throws: MagpieError.self) { _ = try await downloader.data(for: URLRequest(url: url)) }
    #expect(downloader.resumables.count == 1)
    let response = try await downloader.data(for: URLRequest(url: url))
    #expect(response.data == photo)
    #expect(origin.requests("/photo.jpg").last?.headers["range"] == "bytes=\(cut)-")
    #expect(downloader.resumables.count == 0)
  }

  @Test func switchedOffEveryAttemptStartsOver() async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    origin.route("/photo.jpg", .resumable(photo, etag: "\"v1\"", cutAt: cut))
    let response = try await downloader(.curl, resumes: false).data(for: URLRequest(url: origin.url("/photo.jpg")))
    #expect(response.data == photo)
    #expect(origin.requests("/photo.jpg").map { $0.headers["range"] } == [nil, nil])
  }

  // MARK: The rules, as values

  private func response(_ status: Int, _ fields: [String: String]) -> HTTPURLResponse {
    HTTPURLResponse(
      url: URL(string: "https://images.example.com/a.jpg")!, statusCode: status, httpVersion: "HTTP/1.1",
      headerFields: fields)!
  }

  private func partial(_ status: Int, _ fields: [String: String], _ body: Data = Data(count: 10)) -> PartialBody {
    PartialBody(response: response(status, fields), body: body, underlying: nil)
  }

  @Test func onlyAVersionedBodyFromAServerThatTakesRangesIsKept() {
    let ranges = ["Accept-Ranges": "bytes"]
    #expect(ResumableData(partial(200, ranges.merging(["ETag": "\"a\""]) { $1 }), continuing: nil) != nil)
    #expect(
      ResumableData(partial(200, ranges.merging(["Last-Modified": "Sat, 05 Dec 2026"]) { $1 }), continuing: nil) != nil)
    // A weak ETag names no exact bytes; no validator, no ranges: nothing to resume.
    #expect(ResumableData(partial(200, ranges.merging(["ETag": "W/\"a\""]) { $1 }), continuing: nil) == nil)
    #expect(ResumableData(partial(200, ranges), continuing: nil) == nil)
    #expect(ResumableData(partial(200, ["ETag": "\"a\""]), continuing: nil) == nil)
  }

  @Test func aRangeOfAnotherVersionOrPlaceIsNeverSpliced() throws {
    let kept = try #require(
      ResumableData(partial(200, ["Accept-Ranges": "bytes", "ETag": "\"a\"", "Content-Length": "20"]), continuing: nil))
    var request = URLRequest(url: URL(string: "https://images.example.com/a.jpg")!)
    kept.apply(to: &request)
    #expect(request.value(forHTTPHeaderField: "Range") == "bytes=10-")
    #expect(request.value(forHTTPHeaderField: "If-Range") == "\"a\"")
    let rest = Data(repeating: 1, count: 10)
    let joined = try kept.resume(rest, response: response(206, ["ETag": "\"a\"", "Content-Range": "bytes 10-19/20"]))
    #expect(joined.0 == Data(count: 10) + rest)
    #expect(joined.1.statusCode == 200)
    #expect(throws: MagpieError.self) {
      _ = try kept.resume(rest, response: self.response(206, ["ETag": "\"b\"", "Content-Range": "bytes 10-19/20"]))
    }
    #expect(throws: MagpieError.self) {
      _ = try kept.resume(rest, response: self.response(206, ["ETag": "\"a\"", "Content-Range": "bytes 5-14/20"]))
    }
    // A 200 is the whole body, whatever was kept.
    #expect(try kept.resume(rest, response: response(200, ["ETag": "\"b\""])).0 == rest)
  }

  @Test func theStoreIsBoundedInCountAndBytes() throws {
    let store = ResumableDataStore(maximumCount: 2, maximumBytes: 25)
    func entry(_ size: Int) throws -> ResumableData {
      try #require(
        ResumableData(partial(200, ["Accept-Ranges": "bytes", "ETag": "\"a\""], Data(count: size)), continuing: nil))
    }
    store.store(try entry(10), for: "a")
    store.store(try entry(10), for: "b")
    store.store(try entry(10), for: "c")
    #expect(store.count == 2)
    #expect(store.take(for: "a") == nil)
    store.store(try entry(20), for: "d")
    #expect(store.count == 1)
    store.store(try entry(30), for: "e")
    #expect(store.take(for: "e") == nil)
    #expect(store.take(for: "d")?.data.count == 20)
  }
}
