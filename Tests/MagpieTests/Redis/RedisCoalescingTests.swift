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
  }
#endif
