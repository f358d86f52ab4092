import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where a load's image comes from (the network, memory, the disk), what
/// the cache options change, and what a failed disk write leaves.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerCachingTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @Test func networkThenMemoryThenDisk() async throws {
    let body = try png()
    loader.script(url("a.png"), .respond(body: body))
    let first = try manager()
    let loaded = try await first.image(for: ImageRequest(url: url("a.png")))
    #expect(loaded.cacheType == .none)
    #expect(loaded.image.pixelSize == PixelSize(width: 40, height: 30))
    #expect(loaded.metrics.bytesLoaded == body.count)
    #expect(loaded.metrics.attempts == 1)
    let again = try await first.image(for: ImageRequest(url: url("a.png")))
    #expect(again.cacheType == .memory)
    await first.waitForPendingWrites()

    let second = try manager()
    let fromDisk = try await second.image(for: ImageRequest(url: url("a.png")))
    #expect(fromDisk.cacheType == .disk)
    #expect(fromDisk.metrics.bytesFromCache == body.count)
    #expect(fromDisk.image.pixels == loaded.image.pixels)
    #expect(loader.startedURLs.count == 1)
    // The unprocessed image was stored as the bytes the server sent.
    let stored = try second.configuration.cache.diskCache?.data(forKey: url("a.png").absoluteString)
    #expect(stored == body)
  }

  @Test func fromCacheOnlyNeverTouchesTheNetwork() async throws {
    let manager = try manager()
    await #expect {
      _ = try await manager.image(for: ImageRequest(url: url("absent.png"), options: [.fromCacheOnly]))
    } throws: { error in
      (error as? MagpieError)?.code == .notCached
    }
    #expect(loader.startedURLs.isEmpty)
  }

  @Test func forceRefreshDownloadsAgainAndMemoryOnlySkipsTheDisk() async throws {
    loader.script(url("r.png"), .respond(body: try png()))
    let manager = try manager()
    _ = try await manager.image(for: ImageRequest(url: url("r.png"), options: [.cacheMemoryOnly]))
    let refreshed = try await manager.image(
      for: ImageRequest(url: url("r.png"), options: [.forceRefresh, .cacheMemoryOnly]))
    #expect(refreshed.cacheType == .none)
    #expect(loader.startedURLs.count == 2)
    await manager.waitForPendingWrites()
    #expect(try manager.configuration.cache.diskCache?.count() == 0)
  }

  @Test func aDiskWriteFailureIsReportedAndTheLoadStillSucceeds() async throws {
    loader.script(url("w.png"), .respond(body: try png()))
    let failures = WriteFailures()
    let manager = try manager(writeFailures: failures, serializer: RefusingSerializer())
    let result = try await manager.image(
      for: ImageRequest(url: url("w.png"), processors: [InvertProcessor()], options: [.cacheOriginalImage]))
    #expect(result.cacheType == .none)
    await manager.waitForPendingWrites()
    #expect(failures.recorded.map(\.code) == [.encodingFailed])
    // The original bytes are stored even though the processed image was not.
    #expect(try manager.configuration.cache.diskCache?.data(forKey: url("w.png").absoluteString) == result.data)
    #expect(
      try await manager.image(for: ImageRequest(url: url("w.png"), processors: [InvertProcessor()])).cacheType
        == .memory)
  }

  @Test func disabledMemoryWritesStoreOnDiskOnly() async throws {
    loader.script(url("d.png"), .respond(body: try png()))
    let manager = try manager()
    let memory = manager.configuration.cache.memoryCache
    let options: ImageLoadingOptions = [.disableMemoryCacheWrites]
    let processors: [any ImageProcessor] = [InvertProcessor()]
    let loaded = try await manager.image(for: ImageRequest(url: url("d.png"), processors: processors, options: options))
    #expect(loaded.cacheType == .none)
    await manager.waitForPendingWrites()
    #expect(memory.count == 0)
    // From the disk, and again not kept in memory; a plain load keeps it.
    let fromDisk = try await manager.image(
      for: ImageRequest(url: url("d.png"), processors: processors, options: options))
    #expect(fromDisk.cacheType == .disk)
    #expect(fromDisk.image.pixels == loaded.image.pixels)
    #expect(memory.count == 0)
    let plain = try await manager.image(for: ImageRequest(url: url("d.png"), processors: processors))
    #expect(plain.cacheType == .disk)
    #expect(memory.count == 1)
    // Reads still look in memory first.
    let hit = try await manager.image(for: ImageRequest(url: url("d.png"), processors: processors, options: options))
    #expect(hit.cacheType == .memory)
    #expect(loader.startedURLs.count == 1)
  }

  @Test func aMemoryHitCompletesBeforeLoadImageReturnsWhenImmediate() async throws {
    loader.script(url("m.png"), .respond(body: try png()))
    let manager = try manager()
    _ = try await manager.image(for: ImageRequest(url: url("m.png")))
    let delivered = Locked<CacheType?>(nil)
    let task = manager.loadImage(with: ImageRequest(url: url("m.png")), callbackQueue: .immediate) { result in
      delivered.withLock { $0 = try? result.get().cacheType }
    }
    #expect(delivered.withLock { $0 } == .memory)
    #expect(!task.isCancelled)
  }
}
