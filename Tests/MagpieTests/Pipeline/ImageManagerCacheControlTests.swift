import Foundation
import Testing

@testable import Magpie

/// Per-request cache control (issue 35, item 8): each tier's read and
/// write skipped by option or by name, a load that waits for its writes,
/// and a memory hit that brings its stored bytes.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerCacheControlTests {
  let loader = MockDataLoader()
  let directory: TemporaryDirectory
  let remote = InMemoryStorage()
  private let url = URL(string: "https://images.example.com/a.png")!
  private var key: String { url.absoluteString }

  init() throws {
    directory = try TemporaryDirectory()
  }

  private func disk() throws -> DiskCache {
    try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
  }

  /// A manager with a fresh memory cache over the shared disk and remote tiers.
  private func manager() throws -> ImageManager {
    let cache = ImageCache(
      memoryCache: .frozen(), tiers: [CacheTier(try disk()), CacheTier(remote)], trimsOnMemoryPressure: false)
    let downloader = ImageDownloader(
      configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil, sleep: { _ in }))
    return ImageManager(configuration: .init(cache: cache, downloader: downloader))
  }

  private func png() throws -> Data { try PositionPNG.make() }

  private func request(_ options: ImageLoadingOptions = [], reads: Set<CacheType> = [], writes: Set<CacheType> = [])
    -> ImageRequest
  {
    var request = ImageRequest(url: url, options: options)
    request.skippedReads = reads
    request.skippedWrites = writes
    return request
  }

  @Test func memoryReadsAreSkippedByOptionOrByName() async throws {
    loader.script(url, .respond(body: try png()))
    let manager = try manager()
    _ = try await manager.image(for: request())
    await manager.waitForPendingWrites()
    #expect(try await manager.image(for: request()).cacheType == .memory)
    #expect(try await manager.image(for: request([.disableMemoryCacheReads])).cacheType == .disk)
    #expect(try await manager.image(for: request(reads: [.memory])).cacheType == .disk)
    #expect(loader.startedURLs.count == 1)
  }

  @Test func storageReadsAreSkippedAllTogetherOrOneByName() async throws {
    loader.script(url, .respond(body: try png()))
    let first = try manager()
    _ = try await first.image(for: request())
    await first.waitForPendingWrites()
    // A process with an empty memory cache over the same tiers.
    #expect(try await manager().image(for: request(reads: [.disk])).cacheType == .tier("remote"))
    #expect(try await manager().image(for: request(reads: [.disk, .tier("remote")])).cacheType == .none)
    #expect(try await manager().image(for: request([.disableDiskCacheReads])).cacheType == .none)
    #expect(loader.startedURLs.count == 3)
    #expect(try await manager().image(for: request()).cacheType == .disk)
  }

  @Test func writesAreSkippedPerTier() async throws {
    let body = try png()
    loader.script(url, .respond(body: body))
    let manager = try manager()
    let disk = try disk()

    _ = try await manager.image(for: request(writes: [.tier("remote"), .memory]))
    await manager.waitForPendingWrites()
    #expect(try disk.data(forKey: key) == body)
    #expect(remote.stored(key) == nil)
    #expect(manager.cachedImage(for: request()) == nil)

    try await disk.removeAll()
    _ = try await manager.image(for: request([.forceRefresh, .disableDiskCacheWrites]))
    await manager.waitForPendingWrites()
    #expect(try disk.data(forKey: key) == nil)
    #expect(remote.stored(key) == nil)
    #expect(manager.cachedImage(for: request()) != nil)

    // A hit in a slower tier does not fill one the request skips.
    remote.seed(body, forKey: key)
    let fresh = try self.manager()
    #expect(try await fresh.image(for: request(writes: [.disk])).cacheType == .tier("remote"))
    await fresh.waitForPendingWrites()
    #expect(try disk.data(forKey: key) == nil)
  }

  @Test func aLoadWithoutTheOptionIsDeliveredWhileItsWriteIsHeld() async throws {
    loader.script(url, .respond(body: try png()))
    let manager = try manager()
    remote.holdWrites()
    _ = try await manager.image(for: request())
    #expect(remote.stored(key) == nil)
    remote.releaseWrites()
    await manager.waitForPendingWrites()
    #expect(remote.stored(key) != nil)
  }

  @Test func aLoadThatWaitsForItsWritesIsDeliveredAfterThem() async throws {
    let body = try png()
    loader.script(url, .respond(body: body))
    let manager = try manager()
    remote.holdWrites()
    let delivered = Lock(false)
    let waiting = request([.waitForCacheWrites])
    let load = Task {
      let result = try await manager.image(for: waiting)
      delivered.withLock { $0 = true }
      return result
    }
    await remote.heldWrite()
    let deliveredBeforeTheWrite = delivered.withLock { $0 }
    #expect(!deliveredBeforeTheWrite)
    remote.releaseWrites()
    let result = try await load.value
    #expect(remote.stored(key) == body)
    #expect(try disk().data(forKey: key) == body)
    #expect(result.metrics.cacheWrite > .zero)
  }

  @Test func aMemoryHitCanBringItsStoredBytes() async throws {
    let body = try png()
    loader.script(url, .respond(body: body))
    let manager = try manager()
    _ = try await manager.image(for: request())
    await manager.waitForPendingWrites()
    let plain = try await manager.image(for: request())
    #expect(plain.cacheType == .memory)
    #expect(plain.data == nil)
    let withData = try await manager.image(for: request([.loadDataForMemoryHits]))
    #expect(withData.cacheType == .memory)
    #expect(withData.data == body)
    // From the remote tier when the disk is skipped.
    let fromRemote = try await manager.image(for: request([.loadDataForMemoryHits], reads: [.disk]))
    #expect(fromRemote.data == body)
    #expect(remote.reads.last == key)
    #expect(loader.startedURLs.count == 1)
  }

  @Test func atNginxASkippedReadGoesToTheOriginAndASkippedWriteLeavesTheTierEmpty() async throws {
    let root = try directory.servingSamples(["cutout-01.png"])
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let url = origin.url("/cutout-01.png")
    func manager() throws -> ImageManager {
      let cache = ImageCache(
        memoryCache: .frozen(), tiers: [CacheTier(try disk()), CacheTier(remote)], trimsOnMemoryPressure: false)
      return ImageManager(
        configuration: .init(
          cache: cache,
          downloader: ImageDownloader(
            configuration: .init(dataLoader: CurlDataLoader(), retryPolicy: .never, rateLimit: nil))))
    }
    var request = ImageRequest(url: url)
    request.skippedWrites = [.tier("remote")]
    let first = try manager()
    _ = try await first.image(for: request)
    await first.waitForPendingWrites()
    #expect(remote.stored(url.absoluteString) == nil)
    #expect(try await manager().image(for: ImageRequest(url: url)).cacheType == .disk)
    #expect(
      try await manager().image(for: ImageRequest(url: url, options: [.disableDiskCacheReads])).cacheType == .none)
    #expect(try origin.requestCount("/cutout-01.png") == 2)
  }
}
