import Foundation
import Testing

@testable import Magpie

/// `magpie fetch` and `magpie prefetch` against a local nginx, as
/// CONTRACT.md describes them.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct FetchCommandTests {
  let directory: TemporaryDirectory
  let origin: NginxOrigin

  init() throws {
    directory = try TemporaryDirectory()
    let root = try directory.servingSamples(["photo-02.jpg", "cutout-01.png", "pan-00.gif", "photo-01.webp"])
    origin = try NginxOrigin(serving: root)
  }

  private func json(_ text: String) throws -> [String: Any] {
    let line = try #require(text.split(separator: "\n").last.map(String.init))
    return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }

  @Test func fetchReportsWhereEachLoadCameFrom() async throws {
    defer { origin.stop() }
    let cache = directory.path("cache")
    let url = origin.url("/photo-02.jpg").absoluteString
    let first = try await CLIRunner.run(["fetch", url, "--cache-dir", cache, "--json"])
    #expect(first.status == 0, "\(first.stderr)")
    let record = try json(first.stdout)
    #expect(record["source"] as? String == "network")
    #expect(record["width"] as? Int == 1024)
    #expect(record["height"] as? Int == 768)
    #expect(record["format"] as? String == "jpeg")
    let served = try Data(contentsOf: origin.root.appendingPathComponent("photo-02.jpg"))
    #expect(record["bytes"] as? Int == served.count)
    #expect(record["ms"] is Double)
    let keys = ["\"source\"", "\"width\"", "\"height\"", "\"format\"", "\"bytes\"", "\"ms\""].compactMap {
      first.stdout.range(of: $0)?.lowerBound
    }
    #expect(keys.count == 6 && keys == keys.sorted())

    let second = try await CLIRunner.run(["fetch", url, "--cache-dir", cache, "--json"])
    #expect(try json(second.stdout)["source"] as? String == "disk")
    #expect(try origin.requestCount("/photo-02.jpg") == 1)

    let uncached = try await CLIRunner.run(["fetch", url, "--cache-dir", cache, "--no-cache", "--json"])
    #expect(try json(uncached.stdout)["source"] as? String == "network")
    #expect(try origin.requestCount("/photo-02.jpg") == 2)
  }

  @Test func fetchProcessesAndWritesTheOutput() async throws {
    defer { origin.stop() }
    let output = directory.path("thumb.webp")
    let result = try await CLIRunner.run([
      "fetch", origin.url("/cutout-01.png").absoluteString, "-o", output, "--process", "downsample(100x100)|round(8)",
      "--cache-dir", directory.path("cache"), "--json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let record = try json(result.stdout)
    #expect(record["format"] as? String == "webp")
    #expect(record["width"] as? Int == 100)
    let written = try Data(contentsOf: URL(fileURLWithPath: output))
    #expect(record["bytes"] as? Int == written.count)
    let image = try CoderRegistry.shared.decode(written)
    // The rounded corner is transparent.
    #expect(image.pixels[0, 0][3] == 0)
  }

  @Test func fetchFailuresAndUsageErrorsHaveTheirExitCodes() async throws {
    defer { origin.stop() }
    let missing = try await CLIRunner.run(["fetch", origin.url("/absent.jpg").absoluteString, "--no-cache"])
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("magpie: error: fetch "))
    #expect(missing.stderr.contains("404"))
    #expect(try await CLIRunner.run(["fetch"]).status == 2)
    #expect(try await CLIRunner.run(["fetch", "not a url"]).status == 2)
    #expect(
      try await CLIRunner.run(["fetch", origin.url("/a.jpg").absoluteString, "--process", "sparkle"]).status == 2)
  }

  @Test func prefetchFillsTheCacheAndEndsWithTheCounts() async throws {
    defer { origin.stop() }
    let cache = directory.path("cache")
    let list = directory.path("urls.txt")
    let urls = ["/photo-02.jpg", "/cutout-01.png", "/pan-00.gif", "/photo-01.webp", "/absent.png"].map {
      origin.url($0).absoluteString
    }
    try (urls.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
    let first = try await CLIRunner.run(["prefetch", list, "--cache-dir", cache, "--concurrency", "2"])
    #expect(first.status == 1)
    #expect(first.stdout.split(separator: "\n").last == "4 finished, 0 skipped, 1 failed")
    let second = try await CLIRunner.run(
      ["prefetch", "-", "--cache-dir", cache], stdin: Data(urls.prefix(4).joined(separator: "\n").utf8))
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout.split(separator: "\n").last == "0 finished, 4 skipped, 0 failed")
    #expect(try await CLIRunner.run(["prefetch", list, "--concurrency", "0"]).status == 2)
  }

  @Test func aFetchWhoseBodyIsCutAt60PercentCompletesWithOneRangedRetryWhenResuming() async throws {
    defer { origin.stop() }
    let faults = try FaultOrigin()
    defer { faults.stop() }
    let photo = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/photo-02.jpg"))
    let cut = photo.count * 6 / 10
    faults.route("/resumed.jpg", .resumable(photo, etag: "\"v1\"", cutAt: cut))
    faults.route("/restarted.jpg", .resumable(photo, etag: "\"v1\"", cutAt: cut))
    let output = directory.path("resumed.jpg")
    let resumed = try await CLIRunner.run(
      ["fetch", faults.url("/resumed.jpg").absoluteString, "--no-cache", "--resume", "-o", output])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == photo)
    #expect(faults.requests("/resumed.jpg").map { $0.headers["range"] } == [nil, "bytes=\(cut)-"])
    // Without --resume the retry asks for the whole body again.
    let restarted = try await CLIRunner.run(["fetch", faults.url("/restarted.jpg").absoluteString, "--no-cache"])
    #expect(restarted.status == 0, "\(restarted.stderr)")
    #expect(faults.requests("/restarted.jpg").map { $0.headers["range"] } == [nil, nil])
  }

  @Test func httpCacheFollowsTheOriginsCacheControl() async throws {
    defer { origin.stop() }
    let root = directory.url.appendingPathComponent("www")
    try directory.copy("cutout-01.png", in: root, to: "nocache/a.png")
    let nocache = try NginxOrigin(
      serving: root,
      extraConfig: "location ^~ /nocache/ { add_header Cache-Control \"no-cache\"; try_files $uri =404; }")
    defer { nocache.stop() }
    let url = nocache.url("/nocache/a.png").absoluteString
    let cache = directory.path("http-cache")
    func fetch(_ extra: [String]) async throws -> [String: Any] {
      let run = try await CLIRunner.run(["fetch", url, "--cache-dir", cache, "--json"] + extra)
      #expect(run.status == 0, "\(run.stderr)")
      return try json(run.stdout)
    }
    await #expect(try fetch(["--http-cache"])["source"] as? String == "network")
    let second = try await fetch(["--http-cache"])
    #expect(second["source"] as? String == "disk")
    #expect((second["metrics"] as? [String: Any])?["revalidated"] as? Bool == true)
    #expect(try nocache.requestCount("/nocache/a.png") == 2)
    // Without the switch the stored no-cache is not followed.
    let third = try await fetch([])
    #expect((third["metrics"] as? [String: Any])?["revalidated"] as? Bool == false)
    #expect(try nocache.requestCount("/nocache/a.png") == 2)
  }
}
