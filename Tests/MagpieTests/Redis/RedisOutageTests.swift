#if canImport(MagpieRedis)
  import Foundation
  import Glibc
  import Magpie
  import MagpieRedis
  import Testing

  /// Redis down, killed mid-run and back: loads keep succeeding from the
  /// origin within the timeouts, and the tier resumes by itself.
  @Suite(
    .enabled(if: RedisServer.isInstalled, "redis-server is not installed (make test installs it)"),
    .timeLimit(Sanitizer.suiteTimeLimit))
  struct RedisOutageTests {
    let server: RedisServer
    let lines = Locked<[String]>([])

    init() throws { server = try RedisServer() }

    private func storage(retryInterval: Duration, timeouts: Duration? = nil) throws -> RedisStorage {
      var configuration = try server.configuration(prefix: "outage:")
      configuration.retryInterval = retryInterval
      if let timeouts {
        configuration.connectTimeout = timeouts
        configuration.commandTimeout = timeouts
      }
      let lines = lines
      configuration.log = { line in lines.withLock { $0.append(line) } }
      return RedisStorage(configuration: configuration)
    }

    private func png(_ seed: UInt8) throws -> Data {
      try CoderRegistry.shared.encode(
        Image(pixels: PixelBuffer(width: 3, height: 2, straightRGBA: [UInt8](repeating: seed, count: 24))), as: .png)
    }

    @Test func loadsSucceedFromTheOriginWhileRedisIsDownAndTheTierComesBack() async throws {
      // Retry at once: every call after the breaker opens probes the server.
      // Timeouts of an hour: a call that waited for one would outlast the
      // suite's time limit, so no wall-clock bound is needed (among the
      // whole suite on two cores, each await can wait seconds for a thread).
      let redis = try storage(retryInterval: .zero, timeouts: .seconds(3600))
      let loader = MockDataLoader()
      let urls = (0..<12).map { URL(string: "https://images.example.com/\($0).png")! }
      for (index, url) in urls.enumerated() { loader.script(url, .respond(body: try png(UInt8(index * 20)))) }
      let cache = ImageCache(
        memoryCache: .frozen(), tiers: [CacheTier(redis, writeMode: .writeThrough)], trimsOnMemoryPressure: false)
      let downloader = ImageDownloader(configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil))
      let manager = ImageManager(configuration: .init(cache: cache, downloader: downloader))
      for url in urls.prefix(4) { _ = try await manager.image(for: ImageRequest(url: url)) }
      #expect(redis.statistics.stores == 4)

      server.kill()
      for url in urls[4..<8] {
        #expect(try await manager.image(for: ImageRequest(url: url)).cacheType == .none)
      }
      #expect(redis.isSkipping)
      #expect(lines.value.count == 1 && lines.value[0].contains("down"), "\(lines.value)")

      try server.start()
      // The server lost everything (no persistence); the tier fills again.
      for url in urls[8..<12] {
        #expect(try await manager.image(for: ImageRequest(url: url)).cacheType == .none)
      }
      #expect(!redis.isSkipping)
      #expect(lines.value.count == 2 && lines.value[1].contains("back"), "\(lines.value)")
      #expect(try server.cli("DBSIZE") == "4")
      // Another instance (its own memory) reads it from the shared tier.
      let other = ImageManager(
        configuration: .init(
          cache: ImageCache(memoryCache: .frozen(), tiers: [CacheTier(redis)], trimsOnMemoryPressure: false),
          downloader: downloader))
      #expect(try await other.image(for: ImageRequest(url: urls[11])).cacheType == .tier("redis"))
    }

    @Test func anOpenBreakerSkipsTheTierWithoutTouchingTheNetwork() async throws {
      let redis = try storage(retryInterval: .seconds(3600))
      server.kill()
      for index in 0..<10 { _ = try await redis.data(forKey: "k\(index)") }
      let counts = redis.statistics
      // Three failures open it (the default threshold); the rest are skipped.
      #expect(counts.failures == 3)
      #expect(counts.skipped == 7)
      #expect(lines.value.count == 1)
    }

    @Test func aSilentServerCostsAtMostTheCommandTimeout() async throws {
      // A socket that listens but never accepts: the kernel completes the
      // connection, and no reply ever comes.
      let (socket, port) = try RedisServer.boundSocket(listening: true)
      defer { close(socket) }
      var configuration = RedisConfiguration(port: port)
      configuration.commandTimeout = .milliseconds(100)
      let lines = lines
      configuration.log = { line in lines.withLock { $0.append(line) } }
      let redis = RedisStorage(configuration: configuration)
      for index in 0..<5 { #expect(try await redis.data(forKey: "k\(index)") == nil) }
      // Three timed-out calls open the breaker; the other two are skipped.
      // Without the timeout the first would wait forever, and the suite's
      // time limit fails the test. No wall-clock bound: among the whole
      // suite on two cores, each await can wait seconds for a thread.
      #expect(redis.statistics.failures == 3 && redis.statistics.skipped == 2)
      #expect(
        lines.value.count == 1 && lines.value[0].contains("no reply within 100 ms"), "\(lines.value)")
    }
  }
#endif
