import Foundation
import Testing

@testable import Magpie

/// Until a write-behind lands in its tier, reads of that key are served
/// from the pending entry: a load right after another never goes back to
/// the origin because the disk write is still on its way.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct PendingWriteTests {
  let directory: TemporaryDirectory
  let root: URL

  init() throws {
    directory = try TemporaryDirectory()
    root = try directory.servingSamples(["photo-00.jpg", "cutout-01.png"])
  }

  /// A manager whose only tier (written behind) holds every write until
  /// the test releases it, so the window between delivery and the write
  /// landing is as wide as the test needs.
  private func manager(tier storage: InMemoryStorage) -> ImageManager {
    storage.holdWrites()
    let tier = CacheTier(storage)
    let downloader = ImageDownloader(configuration: .init(dataLoader: CurlDataLoader(), rateLimit: nil))
    return ImageManager(
      configuration: .init(
        cache: ImageCache(memoryCache: .frozen(), tiers: [tier], trimsOnMemoryPressure: false),
        downloader: downloader))
  }

  @Test func sixtyIdenticalPrefetchesMakeOneRequest() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let storage = InMemoryStorage()
    let manager = manager(tier: storage)
    let request = ImageRequest(url: origin.url("/photo-00.jpg"), options: [.disableMemoryCacheWrites])
    let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 6)
    let progress = await prefetcher.prefetch(Array(repeating: request, count: 60))
    #expect(progress.failed == 0)
    #expect(progress.finished + progress.skipped == 60)
    #expect(try origin.requestCount("/photo-00.jpg") == 1)
    storage.releaseWrites()
    await manager.waitForPendingWrites()
    #expect(storage.stored(request.cacheKey(defaultFilter: .absoluteString).stringValue) != nil)
  }

  @Test func aLoadRightAfterAPrefetchIsServedFromThePendingWrite() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let storage = InMemoryStorage()
    let manager = manager(tier: storage)
    let url = origin.url("/cutout-01.png")
    let prefetcher = ImagePrefetcher(manager: manager)
    let progress = await prefetcher.prefetch([ImageRequest(url: url, options: [.disableMemoryCacheWrites])])
    #expect(progress.finished == 1)
    // Nothing is kept in memory: every load reads the tiers.
    let result = try await manager.image(for: ImageRequest(url: url, options: [.disableMemoryCacheWrites]))
    #expect(result.cacheType == .tier("remote"))
    #expect(result.image.pixelSize == PixelSize(width: 400, height: 400))
    // A processed variant finds the original in the pending write, and a
    // second load of it finds the variant's own: no second download.
    let flipped = try await manager.image(
      for: ImageRequest(
        url: url, processors: [ImageProcessors.Flip(.vertical)],
        options: [.cacheOriginalImage, .disableMemoryCacheWrites]))
    #expect(flipped.image.pixelSize == PixelSize(width: 400, height: 400))
    let processed = try await manager.image(
      for: ImageRequest(url: url, processors: [ImageProcessors.Flip(.vertical)], options: [.disableMemoryCacheWrites]))
    #expect(processed.cacheType == .tier("remote"))
    #expect(processed.image.pixels == flipped.image.pixels)
    #expect(try origin.requestCount("/cutout-01.png") == 1)
    #expect(
      manager.configuration.cache.cachedType(forKey: ImageRequest(url: url).cacheKey(defaultFilter: .absoluteString))
        == .tier("remote"))
    let cache = manager.configuration.cache
    let flippedKey = ImageRequest(url: url, processors: [ImageProcessors.Flip(.vertical)])
      .cacheKey(defaultFilter: .absoluteString)
    #expect(cache.pendingWrites.staged(forKey: flippedKey.stringValue) != nil)
    storage.releaseWrites()
    await manager.waitForPendingWrites()
    // Landed: the staged entries are gone.
    #expect(cache.pendingWrites.staged(forKey: url.absoluteString) == nil)
    #expect(cache.pendingWrites.staged(forKey: flippedKey.stringValue) == nil)
  }

  @Test func aStoreOrARemovalSinceIsNotShadowedByThePendingWrite() async throws {
    let storage = InMemoryStorage()
    let manager = manager(tier: storage)
    let cache = manager.configuration.cache
    let data = try Data(contentsOf: root.appendingPathComponent("cutout-01.png"))
    let key = ImageCacheKey(source: "memory://cutout")
    let image = try CoderRegistry.shared.decode(data)
    let ticket = cache.stageWriteBehind(
      image, original: data, forKey: key, metadata: nil, alsoOriginal: false, access: .all)
    #expect(ticket != nil)
    #expect(cache.cachedType(forKey: key) == .tier("remote"))
    #expect(
      try await cache.retrieveImage(forKey: key, from: .disk).image?.pixelSize == PixelSize(width: 400, height: 400))
    // A store made since is newer than the pending write.
    let other = try CoderRegistry.shared.decode(
      try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/photo-00.jpg")))
    storage.releaseWrites()
    try await cache.store(other, forKey: key, in: .disk)
    #expect(
      try await cache.retrieveImage(forKey: key, from: .disk).image?.pixelSize == PixelSize(width: 1600, height: 1067))
    storage.holdWrites()
    _ = cache.stageWriteBehind(image, original: data, forKey: key, metadata: nil, alsoOriginal: false, access: .all)
    try await cache.removeImage(forKey: key)
    #expect(cache.cachedType(forKey: key) == .none)
    #expect(try await cache.retrieveImage(forKey: key, from: .disk).image == nil)
    storage.releaseWrites()
  }
}
