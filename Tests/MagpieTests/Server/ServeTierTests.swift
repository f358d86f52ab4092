#if canImport(MagpieRedis)
  import Foundation
  import Magpie
  import MagpieRedis
  import MagpieServer
  import Testing

  /// The result tiers behind `magpie serve`: a Redis outage costs time,
  /// not errors; two instances sharing Redis transform each URL once.
  @Suite("Serve result tiers")
  struct ServeTierTests {
    private static func origin() throws -> (NginxOrigin, TemporaryDirectory) {
      let root = try TemporaryDirectory()
      for name in ["birds.png", "garden.png", "door.png", "statue.png"] {
        try FileManager.default.copyItem(
          at: TestPaths.photo(String(name.dropLast(4))), to: root.url.appendingPathComponent(name))
      }
      return (try NginxOrigin(serving: root.url), root)
    }

    @Test("with Redis down every request is still answered")
    func redisDown() async throws {
      let (origin, root) = try Self.origin()
      let port = try RedisServer.boundSocket(listening: false)  // a port nothing answers on
      defer { close(port.socket) }
      var redis = RedisConfiguration(host: "127.0.0.1", port: port.port)
      redis.connectTimeout = .milliseconds(200)
      var configuration = ServeHarness.configuration()
      configuration.tiers = [RedisStorage(configuration: redis)]
      let harness = try ServeHarness(configuration)
      for name in ["birds.png", "garden.png", "birds.png"] {
        let answer = try await harness.get(ServeHarness.path(ServeHarness.fit(30, 30), origin.url("/" + name)))
        #expect(answer.status == 200)
      }
      await harness.stop()
      _ = root
    }

    @Test("two instances sharing Redis transform each URL once, asked at both at the same time")
    func twoInstances() async throws {
      let (origin, root) = try Self.origin()
      let redisServer = try RedisServer()
      func instance() throws -> ServeHarness {
        var configuration = ServeHarness.configuration()
        var redis = RedisConfiguration(port: redisServer.port)
        // The holder's transform must land before the others stop waiting,
        // also under a sanitizer's slowdown.
        redis.lockWait = .seconds(60)
        redis.lockDuration = .seconds(120)
        configuration.tiers = [RedisStorage(configuration: redis)]
        return try ServeHarness(configuration)
      }
      let first = try instance()
      let second = try instance()
      let names = ["birds.png", "garden.png", "door.png", "statue.png"]
      var paths: [String] = []
      for name in names {
        for size in [32, 48] { paths.append(ServeHarness.path(ServeHarness.fit(size, size), origin.url("/" + name))) }
      }
      try await withThrowingTaskGroup(of: Int.self) { group in
        for path in paths {
          group.addTask { try await first.get(path).status }
          group.addTask { try await second.get(path).status }
        }
        for try await status in group { #expect(status == 200) }
      }
      // Each of the 8 URLs was transformed by one instance only; the other
      // waited for its result in Redis.
      #expect(first.service.metrics.count(.transform) + second.service.metrics.count(.transform) == paths.count)
      for name in names {
        // At most one download per URL (an instance's two sizes of a
        // source may share one download).
        #expect((1...2).contains(try origin.requestCount("/" + name)), "\(name)")
      }
      await first.stop()
      await second.stop()
      _ = root
    }

    @Test("a failed transform lets the other instances go at once instead of holding the fleet lock")
    func failureReleasesTheLock() async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/missing.jpg", .status(404))
      let redisServer = try RedisServer()
      func instance() throws -> ServeHarness {
        var redis = RedisConfiguration(port: redisServer.port)
        redis.lockWait = .seconds(600)  // a held lock would stall the next request this long
        var configuration = ServeHarness.configuration()
        configuration.tiers = [RedisStorage(configuration: redis)]
        return try ServeHarness(configuration)
      }
      let first = try instance()
      let second = try instance()
      let path = ServeHarness.path(
        ServeHarness.fit(10, 10), URL(string: "http://127.0.0.1:\(origin.port)/missing.jpg")!)
      #expect(try await first.get(path).status == 404)
      let clock = ContinuousClock()
      let start = clock.now
      #expect(try await second.get(path).status == 404)
      #expect(try await first.get(path).status == 404)
      #expect(clock.now - start < .seconds(120 * Sanitizer.slowdown))
      #expect(origin.requests("/missing.jpg").count == 3)
      await first.stop()
      await second.stop()
    }
  }
#endif
