#if canImport(MagpieRedis)
  import Foundation
  import Magpie
  import MagpieRedis
  import Testing

  /// Instances that miss one key at once: one fetches, the others wait for
  /// the shared tier, and a holder that dies or gives up holds nobody for
  /// longer than the configured bounds. Each storage is one instance (its
  /// own connections).
  @Suite(
    .enabled(if: RedisServer.isInstalled, "redis-server is not installed (make test installs it)"),
    .timeLimit(Sanitizer.suiteTimeLimit))
  struct RedisCoalescingTests {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    private func instance(_ adjust: (inout RedisConfiguration) -> Void = { _ in }) throws -> RedisStorage {
      var configuration = try server.configuration(prefix: "fleet:")
      adjust(&configuration)
      return RedisStorage(configuration: configuration)
    }

    @Test func theOthersWaitForTheFirstInstancesEntry() async throws {
      let first = try instance()
      let others = try (0..<3).map { _ in try instance() }
      #expect(try await first.data(forKey: "k") == nil)
      #expect(first.statistics.locksTaken == 1)
      let waiting = others.map { other in Task { try await other.data(forKey: "k") } }
      try await first.storeData(Data("thumbnail".utf8), forKey: "k", metadata: nil)
      for task in waiting { #expect(try await task.value == Data("thumbnail".utf8)) }
      for other in others {
        let counts = other.statistics
        #expect(counts.locksTaken == 0)
        #expect(counts.hits + counts.coalescedHits == 1)
      }
      // The lock is gone with the store.
      #expect(try server.cli("EXISTS", "fleet:lock:k") == "0")
    }

    @Test func aHolderThatDiesHoldsTheOthersOnlyUntilItsLockExpires() async throws {
      let dying = try instance { $0.lockDuration = .milliseconds(300) }
      let other = try instance { $0.lockWait = .seconds(120) }
      #expect(try await dying.data(forKey: "k") == nil)
      let clock = ContinuousClock()
      let start = clock.now
      // The lock expires; the waiter takes it and fetches itself.
      #expect(try await other.data(forKey: "k") == nil)
      // Well before its own 120 s wait would run out.
      #expect(clock.now - start < .seconds(60))
      #expect(other.statistics.locksTaken == 1)
    }

    @Test func aWaitThatRunsOutFetchesWithoutTheLock() async throws {
      let holder = try instance { $0.lockDuration = .seconds(60) }
      let other = try instance { $0.lockWait = .milliseconds(200) }
      #expect(try await holder.data(forKey: "k") == nil)
      #expect(try await other.data(forKey: "k") == nil)
      #expect(other.statistics.locksTaken == 0 && other.statistics.misses == 1)
    }

    @Test func anUncacheableResultReleasesTheWaitersAtOnce() async throws {
      let holder = try instance { $0.maximumValueSize = 100 }
      let other = try instance { $0.lockWait = .seconds(60) }
      #expect(try await holder.data(forKey: "k") == nil)
      let waiting = Task { try await other.data(forKey: "k") }
      try await holder.storeData(Data(count: 1000), forKey: "k", metadata: nil)
      #expect(try await waiting.value == nil)
      #expect(holder.statistics.oversized == 1)
    }

    @Test func storingAProcessedVariantReleasesItsOriginalsLock() async throws {
      // A thumbnail's load misses the thumbnail, then the original: both
      // locked. Storing the thumbnail ends the load; the original is not
      // stored, and nobody should wait for it.
      let first = try instance()
      let key = ImageCacheKey(source: "https://example.com/a.jpg", processorIdentifier: "downsample(64x64)")
      #expect(try await first.data(forKey: key.stringValue) == nil)
      #expect(try await first.data(forKey: key.original.stringValue) == nil)
      #expect(try server.cli("EXISTS", "fleet:lock:https://example.com/a.jpg") == "1")
      try await first.storeData(Data([1]), forKey: key.stringValue, metadata: nil)
      #expect(try server.cli("DBSIZE") == "1")
      let other = try instance { $0.lockWait = .seconds(60) }
      #expect(try await other.data(forKey: key.original.stringValue) == nil)
      #expect(other.statistics.locksTaken == 1)
    }

    @Test func withoutCoalescingEveryMissFetches() async throws {
      let first = try instance { $0.coalescesMisses = false }
      let second = try instance { $0.coalescesMisses = false }
      #expect(try await first.data(forKey: "k") == nil)
      #expect(try await second.data(forKey: "k") == nil)
      #expect(try server.cli("EXISTS", "fleet:lock:k") == "0")
    }

    @Test func aLoadThatFailsLetsTheOtherInstancesFetchAtOnce() async throws {
      // Two managers, each with its own Redis connection as its only
      // tier; the source is 404. The first load's miss takes the lock; its
      // failure must give it up, or the second instance's miss waits the
      // whole lockWait for an entry that never comes.
      let loader = MockDataLoader()
      let url = URL(string: "https://images.example.com/gone.png")!
      loader.script(url, .fail(MagpieError(.httpStatus, "HTTP 404", statusCode: 404)))
      func manager() throws -> ImageManager {
        let storage = try instance { $0.lockWait = .seconds(20 * Sanitizer.slowdown) }
        let cache = ImageCache(
          memoryCache: .frozen(), tiers: [CacheTier(storage, writeMode: .writeThrough)], trimsOnMemoryPressure: false)
        let downloader = ImageDownloader(configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil))
        return ImageManager(configuration: .init(cache: cache, downloader: downloader))
      }
      var request = ImageRequest(url: url)
      request.processors = [ImageProcessors.Downsampling(size: PixelSize(width: 8, height: 8))]
      await #expect(throws: MagpieError.self) { try await manager().image(for: request) }
      let clock = ContinuousClock()
      let start = clock.now
      await #expect(throws: MagpieError.self) { try await manager().image(for: request) }
      #expect(clock.now - start < .seconds(10 * Sanitizer.slowdown))
      #expect(loader.startedURLs.count == 2)
      // Neither the thumbnail's lock nor its original's is held: each is
      // the marker that tells waiters no entry is coming, or gone with the
      // lock's expiry (a sanitizer's slowdown outlasts it).
      let key = ImageCacheKey(source: url.absoluteString, processorIdentifier: request.processors[0].identifier)
      for lock in [key.stringValue, key.original.stringValue] {
        #expect(["uncacheable", ""].contains(try server.cli("GET", "fleet:lock:" + lock)), "\(lock)")
      }
    }
  }
#endif
