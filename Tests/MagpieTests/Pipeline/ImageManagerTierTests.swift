import Foundation
import Synchronization
import Testing

@testable import Magpie

/// The pipeline over a chain of tiers: memory, disk, and a "remote"
/// ``InMemoryStorage`` the test registers behind them.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerTierTests {
  let loader = MockDataLoader()
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
  }

  private func disk(_ name: String = "cache") throws -> DiskCache {
    try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent(name)))
  }

  private func manager(
    tiers: [CacheTier], readFailed: (@Sendable (MagpieError, ImageCacheKey, String) -> Void)? = nil
  ) -> ImageManager {
    let cache = ImageCache(
      memoryCache: .frozen(), tiers: tiers, trimsOnMemoryPressure: false,
      readFailed: readFailed)
    let downloader = ImageDownloader(
      configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil, sleep: { _ in }))
    return ImageManager(configuration: .init(cache: cache, downloader: downloader))
  }

  private let url = URL(string: "https://images.example.com/a.png")!

  /// A PNG whose pixels encode their position.
  private func png() throws -> Data { try PositionPNG.make() }

  @Test func aRemoteTierIsReadAfterMemoryAndDiskFilledAfterTheNetworkAndItsHitsFillMemoryAndDisk() async throws {
    let body = try png()
    loader.script(url, .respond(headers: ["ETag": "\"v1\""], body: body))
    let remote = InMemoryStorage()
    let key = url.absoluteString

    // Memory, disk and remote all miss: the network loads it, and every
    // tier is filled.
    let first = manager(tiers: [CacheTier(try disk()), CacheTier(remote)])
    let loaded = try await first.image(for: ImageRequest(url: url))
    #expect(loaded.cacheType == .none)
    #expect(remote.reads == [key])
    await first.waitForPendingWrites()
    #expect(remote.stored(key) == body)
    #expect(try first.configuration.cache.diskCache?.data(forKey: key) == body)
    #expect(remote.storedMetadata(key) != nil)

    // A new process with an empty disk: memory and disk miss, remote hits
    // and fills both, validators included.
    let emptyDisk = try disk("other")
    let second = manager(tiers: [CacheTier(emptyDisk), CacheTier(remote)])
    let fromRemote = try await second.image(for: ImageRequest(url: url))
    #expect(fromRemote.cacheType == .tier("remote"))
    #expect(fromRemote.cacheType.rawValue == "remote")
    #expect(fromRemote.metrics.bytesFromCache == body.count)
    #expect(fromRemote.image.pixels == loaded.image.pixels)
    #expect(loader.startedURLs.count == 1)
    await second.waitForPendingWrites()
    #expect(try emptyDisk.data(forKey: key) == body)
    #expect(emptyDisk.metadata(forKey: key) == remote.storedMetadata(key))
    #expect(try await second.image(for: ImageRequest(url: url)).cacheType == .memory)

    // And the filled disk now answers before the remote tier.
    let third = manager(tiers: [CacheTier(emptyDisk), CacheTier(remote)])
    #expect(try await third.image(for: ImageRequest(url: url)).cacheType == .disk)
    #expect(remote.reads == [key, key])
  }

  @Test func writeThroughTiersAreStoredBeforeDeliveryAndWriteBehindTiersAfter() async throws {
    let body = try png()
    loader.script(url, .respond(body: body))
    let through = InMemoryStorage(name: "through")
    let behind = InMemoryStorage(name: "behind")
    behind.holdWrites()
    let manager = manager(tiers: [
      CacheTier(through, writeMode: .writeThrough), CacheTier(behind, writeMode: .writeBehind),
    ])
    let loaded = try await manager.image(for: ImageRequest(url: url))
    #expect(loaded.cacheType == .none)
    // Delivered: the write-through tier has it, the write-behind one not yet.
    #expect(through.stored(url.absoluteString) == body)
    #expect(behind.stored(url.absoluteString) == nil)
    behind.releaseWrites()
    await manager.waitForPendingWrites()
    #expect(behind.stored(url.absoluteString) == body)
  }

  @Test func failedReadsReachTheHookAndCountAsMisses() async throws {
    let body = try png()
    loader.script(url, .respond(body: body))
    let remote = InMemoryStorage()
    remote.seed(body, forKey: url.absoluteString)
    remote.failReads(with: MagpieError(.fileSystem, "the remote store is unreachable"))
    let failures = Locked<[String]>([])
    let manager = manager(tiers: [CacheTier(try disk()), CacheTier(remote)]) { error, key, tier in
      failures.withLock { $0.append("\(tier) \(key.stringValue) \(error.code)") }
    }
    let loaded = try await manager.image(for: ImageRequest(url: url))
    #expect(loaded.cacheType == .none)
    #expect(loader.startedURLs.count == 1)
    #expect(failures.value == ["remote \(url.absoluteString) \(MagpieError.Code.fileSystem)"])
  }

  @Test func aTierThatIsNeverReadIsOnlyWritten() async throws {
    let body = try png()
    loader.script(url, .respond(body: body))
    let backup = InMemoryStorage(name: "backup")
    let first = manager(tiers: [CacheTier(backup, readPolicy: .never)])
    _ = try await first.image(for: ImageRequest(url: url))
    await first.waitForPendingWrites()
    #expect(backup.stored(url.absoluteString) == body)
    let second = manager(tiers: [CacheTier(backup, readPolicy: .never)])
    #expect(try await second.image(for: ImageRequest(url: url)).cacheType == .none)
    #expect(backup.reads.isEmpty)
  }
}
