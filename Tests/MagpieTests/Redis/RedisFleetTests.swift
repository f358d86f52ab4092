#if canImport(MagpieRedis)
  import Foundation
  import Testing

  /// Four `magpie prefetch --redis` processes over one list at once, against
  /// a real nginx and redis-server: the origin serves each URL once.
  @Suite(
    .enabled(if: RedisServer.isInstalled, "redis-server is not installed (make test installs it)"),
    .serialized, .timeLimit(Sanitizer.timeLimit(minutes: 3)))
  struct RedisFleetTests {
    let directory: TemporaryDirectory
    let origin: NginxOrigin
    let server: RedisServer
    let names: [String]

    init() throws {
      directory = try TemporaryDirectory()
      let root = directory.url.appendingPathComponent("www")
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      let samples = TestPaths.repositoryRoot.appendingPathComponent("samples")
      names = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { $0.hasPrefix("photo-") }
        .sorted()
      for name in names {
        try FileManager.default.copyItem(
          at: samples.appendingPathComponent(name), to: root.appendingPathComponent(name))
      }
      origin = try NginxOrigin(serving: root)
      server = try RedisServer()
    }

    @Test func fourProcessesFetchEachURLFromTheOriginOnce() async throws {
      defer { origin.stop() }
      let list = names.map { origin.url("/\($0)").absoluteString }.joined(separator: "\n")
      let redis = server.url().absoluteString
      let runs = (0..<4).map { index in
        let cache = directory.path("cache-\(index)")
        return Task.detached {
          try await CLIRunner.run(
            ["prefetch", "-", "--redis", redis, "--cache-dir", cache, "--process", "downsample(128x128)"],
            stdin: Data(list.utf8))
        }
      }
      var hits = 0
      for run in runs {
        let result = try await run.value
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("redis ") })
        hits += Int(summary.split(separator: " ")[2]) ?? 0
      }
      for name in names { #expect(try origin.requestCount("/\(name)") == 1, "\(name)") }
      // Every load but the first of each URL came from the shared tier (or
      // was skipped as cached there already).
      #expect(hits <= 3 * names.count)

      // A fifth instance, one fetch: from the shared tier, not the origin.
      let url = origin.url("/\(names[0])").absoluteString
      let fetched = try await CLIRunner.run([
        "fetch", url, "--redis", redis, "--cache-dir", directory.path("cache-5"), "--process", "downsample(128x128)",
        "--json",
      ])
      #expect(fetched.status == 0, "\(fetched.stderr)")
      #expect(fetched.stdout.contains("\"source\":\"redis\""), "\(fetched.stdout)")
      #expect(try origin.requestCount("/\(names[0])") == 1)
    }

    @Test func aBadRedisURLIsAUsageError() async throws {
      defer { origin.stop() }
      let result = try await CLIRunner.run(["fetch", origin.url("/\(names[0])").absoluteString, "--redis", "http://x"])
      #expect(result.status == 2)
      #expect(result.stderr.contains("--redis"))
    }
  }
#endif
