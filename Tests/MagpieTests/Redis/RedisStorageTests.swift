#if canImport(MagpieRedis)
  import Foundation
  import Magpie
  import MagpieRedis
  import Testing

  /// ``RedisStorage`` against a real redis-server on a free loopback port.
  @Suite(
    .enabled(if: RedisServer.isInstalled, "redis-server is not installed (make test installs it)"),
    .timeLimit(Sanitizer.suiteTimeLimit))
  struct RedisStorageTests {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    private func storage(
      prefix: String = "test:", _ adjust: (inout RedisConfiguration) -> Void = { _ in }
    ) throws -> RedisStorage {
      var configuration = try server.configuration(prefix: prefix)
      adjust(&configuration)
      return RedisStorage(configuration: configuration)
    }

    @Test func entriesRoundTripWithTheirMetadata() async throws {
      let redis = try storage()
      let payload = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
      #expect(try await redis.data(forKey: "a") == nil)
      try await redis.storeData(payload, forKey: "a", metadata: Data("validators".utf8))
      #expect(try await redis.data(forKey: "a") == payload)
      #expect(try await redis.metadata(forKey: "a") == Data("validators".utf8))
      #expect(await redis.containsData(forKey: "a"))
      // Under the prefix, on the server itself.
      #expect(try server.cli("EXISTS", "test:a") == "1")
      try await redis.removeData(forKey: "a")
      #expect(!(await redis.containsData(forKey: "a")))
      let counts = redis.statistics
      #expect(counts.hits == 1 && counts.stores == 1 && counts.misses == 1 && counts.failures == 0)
    }

    @Test func manyLargeValuesPipelinedOnOneConnectionArriveWhole() async throws {
      // 3 MiB values, 8 at once on one connection: far more than the
      // socket takes in one write, so writes are partial and resume when
      // the loop sees it writable, while replies are read in between.
      let redis = try storage { $0.poolSize = 1 }
      let values = (0..<8).map { seed in Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ seed) }) }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for (index, value) in values.enumerated() {
          group.addTask { try await redis.storeData(value, forKey: "large-\(index)", metadata: nil) }
        }
        try await group.waitForAll()
      }
      let read = try await withThrowingTaskGroup(of: (Int, Data?).self) { group in
        for index in values.indices { group.addTask { (index, try await redis.data(forKey: "large-\(index)")) } }
        return try await group.reduce(into: [Int: Data?]()) { $0[$1.0] = $1.1 }
      }
      for (index, value) in values.enumerated() { #expect(read[index] == value, "value \(index)") }
      #expect(redis.statistics.stores == 8 && redis.statistics.hits == 8 && redis.statistics.failures == 0)
    }

    @Test func entriesExpireAfterTheConfiguredLifetime() async throws {
      let lasting = try storage { $0.expiration = .days(1) }
      try await lasting.storeData(Data([1]), forKey: "lasting", metadata: nil)
      let ttl = try #require(Int(try server.cli("PTTL", "test:lasting")))
      // A day, less the moments before the read: an hour of slack, as a
      // loaded ThreadSanitizer run took over 10 s to start redis-cli.
      #expect(ttl > 86_400_000 - 3_600_000 && ttl <= 86_400_000, "PTTL \(ttl)")
      let forever = try storage { $0.expiration = .never }
      try await forever.storeData(Data([1]), forKey: "forever", metadata: nil)
      #expect(try server.cli("PTTL", "test:forever") == "-1")
      let brief = try storage { $0.expiration = .seconds(0.001) }
      try await brief.storeData(Data([1]), forKey: "brief", metadata: nil)
      // Redis expires it on its own clock; the read after that misses.
      while await brief.containsData(forKey: "brief") { await Task.yield() }
      #expect(try await brief.data(forKey: "brief") == nil)
    }

    @Test func valuesOverTheCapAreNotStored() async throws {
      let redis = try storage { $0.maximumValueSize = 1000 }
      try await redis.storeData(Data(count: 2000), forKey: "big", metadata: nil)
      #expect(!(await redis.containsData(forKey: "big")))
      try await redis.storeData(Data(count: 900), forKey: "small", metadata: nil)
      #expect(await redis.containsData(forKey: "small"))
      #expect(redis.statistics.oversized == 1)
    }

    @Test func aCorruptedValueIsDeletedAndRefetchedFromTheOrigin() async throws {
      let redis = try storage { $0.coalescesMisses = false }
      let loader = MockDataLoader()
      let url = URL(string: "https://images.example.com/a.png")!
      let png = try CoderRegistry.shared.encode(
        Image(pixels: PixelBuffer(width: 2, height: 2, straightRGBA: [UInt8](repeating: 200, count: 16))), as: .png)
      loader.script(url, .respond(body: png))
      func manager() -> ImageManager {
        let cache = ImageCache(
          memoryCache: .frozen(), tiers: [CacheTier(redis, writeMode: .writeThrough)], trimsOnMemoryPressure: false)
        let downloader = ImageDownloader(configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil))
        return ImageManager(configuration: .init(cache: cache, downloader: downloader))
      }
      #expect(try await manager().image(for: ImageRequest(url: url)).cacheType == .none)
      #expect(try await manager().image(for: ImageRequest(url: url)).cacheType == .tier("redis"))
      // Flip one byte of the stored value on the server.
      let key = try #require(try server.cli("--scan", "--pattern", "test:*").split(separator: "\n").first)
      let script =
        "local v = redis.call('GET', KEYS[1]) return redis.call('SET', KEYS[1], v:sub(1, 30) .. 'X' .. v:sub(32))"
      _ = try server.cli("EVAL", script, "1", String(key))
      #expect(try await manager().image(for: ImageRequest(url: url)).cacheType == .none)
      #expect(loader.startedURLs.count == 2)
      #expect(redis.statistics.corrupt == 1)
      #expect(try await manager().image(for: ImageRequest(url: url)).cacheType == .tier("redis"))
    }

    @Test func removeAllRemovesOnlyItsOwnPrefix() async throws {
      let redis = try storage(prefix: "mine:")
      for index in 0..<2500 { try await redis.storeData(Data([1]), forKey: "k\(index)", metadata: nil) }
      _ = try server.cli("SET", "theirs:k", "kept")
      try await redis.removeAll()
      #expect(try server.cli("DBSIZE") == "1")
      #expect(try server.cli("GET", "theirs:k") == "kept")
    }

    @Test func aSharedTierHitFillsTheLocalDisk() async throws {
      let redis = try storage()
      let loader = MockDataLoader()
      let url = URL(string: "https://images.example.com/b.png")!
      let png = try CoderRegistry.shared.encode(
        Image(pixels: PixelBuffer(width: 2, height: 1, straightRGBA: [9, 8, 7, 255, 6, 5, 4, 255])), as: .png)
      loader.script(url, .respond(body: png))
      let folders = try TemporaryDirectory()
      // Two instances, each with its own disk in front of the shared tier.
      func instance(_ name: String) throws -> (ImageManager, DiskCache) {
        let disk = try DiskCache(configuration: .init(directory: folders.url.appendingPathComponent(name)))
        let cache = ImageCache(
          memoryCache: .frozen(), tiers: [CacheTier(disk), CacheTier(redis, writeMode: .writeThrough)],
          trimsOnMemoryPressure: false)
        let downloader = ImageDownloader(configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil))
        return (ImageManager(configuration: .init(cache: cache, downloader: downloader)), disk)
      }
      let (first, _) = try instance("first")
      #expect(try await first.image(for: ImageRequest(url: url)).cacheType == .none)
      let (second, disk) = try instance("second")
      #expect(try await second.image(for: ImageRequest(url: url)).cacheType == .tier("redis"))
      await second.waitForPendingWrites()
      #expect(disk.containsData(forKey: ImageRequest(url: url).cacheKey(defaultFilter: .absoluteString).stringValue))
      #expect(loader.startedURLs.count == 1)
    }

    @Test func releasingAStorageClosesItsConnections() async throws {
      func clients() throws -> Int {
        let info = try server.cli("INFO", "clients")
        let line = info.split(whereSeparator: \.isNewline).first { $0.hasPrefix("connected_clients:") }
        return Int(line?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
      }
      var redis: RedisStorage? = try storage()
      let busy = try #require(redis)
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<12 {
          group.addTask { try await busy.storeData(Data([1]), forKey: "c\(index)", metadata: nil) }
        }
        try await group.waitForAll()
      }
      // The storage's connections and redis-cli's own.
      #expect(try clients() > 1)
      redis = nil
      _ = consume busy
      while try clients() > 1 { await Task.yield() }
    }

    @Test func authAndDatabaseIndexAreSent() async throws {
      _ = try server.cli("CONFIG", "SET", "requirepass", "s3cret")
      let denied = try storage { $0.failureThreshold = 100 }
      try await denied.storeData(Data([1]), forKey: "x", metadata: nil)
      #expect(denied.statistics.stores == 0)
      let allowed = try storage {
        $0.password = "s3cret"
        $0.database = 2
      }
      try await allowed.storeData(Data([7]), forKey: "x", metadata: nil)
      #expect(try await allowed.data(forKey: "x") == Data([7]))
      #expect(try server.cli("-a", "s3cret", "--no-auth-warning", "-n", "2", "EXISTS", "test:x") == "1")
      #expect(try server.cli("-a", "s3cret", "--no-auth-warning", "-n", "0", "EXISTS", "test:x") == "0")
    }
  }
#endif
