import Foundation
import Testing

@testable import Magpie

/// The manager's delegate (issue 35, item 9): every task's events with
/// its metrics, the cache key, cache policy and downloader it chooses per
/// request, and the storage errors it is told of.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerDelegateTests {
  /// Records what it sees; steers by host.
  final class Recorder: ImageManagerDelegate {
    let log = Lock<[String]>([])
    let results = Lock<[ImageResult]>([])
    let other: ImageDownloader?

    init(other: ImageDownloader? = nil) { self.other = other }

    func imageTaskCreated(_ task: ImageTask) {
      log.withLock { $0.append("created \(task.request.url?.lastPathComponent ?? "")") }
    }

    func imageTask(_ task: ImageTask, didReceive event: ImageTask.Event) {
      switch event {
      case .progress: log.withLock { $0.append("progress") }
      case .partialImage: log.withLock { $0.append("preview") }
      case .finished(let result):
        log.withLock { $0.append("finished") }
        if case .success(let value) = result { results.withLock { $0.append(value) } }
      }
    }

    func cacheKey(for request: ImageRequest, proposed: ImageCacheKey) -> ImageCacheKey {
      // Signed URLs: the signature is not part of the image's identity.
      guard let url = request.url, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
        return proposed
      }
      parts.query = nil
      return ImageCacheKey(source: parts.string ?? proposed.source, processorIdentifier: proposed.processorIdentifier)
    }

    func cacheOptions(for request: ImageRequest) -> ImageLoadingOptions {
      request.url?.host == "private.example.com" ? request.options.union(.cacheMemoryOnly) : request.options
    }

    func downloader(for request: ImageRequest) -> ImageDownloader? {
      request.url?.host == "other.example.com" ? other : nil
    }

    func cacheWriteFailed(_ error: MagpieError, key: ImageCacheKey) {
      log.withLock { $0.append("write failed \(key.source)") }
    }

    func cacheReadFailed(_ error: MagpieError, key: ImageCacheKey, tier: String) {
      log.withLock { $0.append("read failed \(tier)") }
    }
  }

  let loader = MockDataLoader()
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  private func png() throws -> Data {
    try CoderRegistry.shared.encode(
      Image(pixels: PixelBuffer(width: 4, height: 4, straightRGBA: [UInt8](repeating: 200, count: 64))), as: .png)
  }

  private func downloader(_ loader: MockDataLoader) -> ImageDownloader {
    ImageDownloader(configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil, sleep: { _ in }))
  }

  private func manager(_ delegate: Recorder, tiers: [CacheTier]? = nil) throws -> ImageManager {
    let disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
    let cache = ImageCache(memoryCache: .frozen(), tiers: tiers ?? [CacheTier(disk)], trimsOnMemoryPressure: false)
    var configuration = ImageManager.Configuration(cache: cache, downloader: downloader(loader))
    configuration.delegate = delegate
    return ImageManager(configuration: configuration)
  }

  @Test func everyTaskIsSeenWithItsEventsAndMetricsMemoryHitsIncluded() async throws {
    let url = URL(string: "https://images.example.com/a.png?sig=1")!
    loader.script(url, .respond(body: try png(), chunkSize: 30))
    let delegate = Recorder()
    let manager = try manager(delegate)
    _ = try await manager.image(for: ImageRequest(url: url))
    // The same image under another signature: the delegate's key finds it.
    let hit = try await manager.image(for: ImageRequest(url: URL(string: "https://images.example.com/a.png?sig=2")!))
    #expect(hit.cacheType == .memory)
    let log = delegate.log.withLock { $0 }
    #expect(log.first == "created a.png")
    #expect(log.contains("progress"))
    #expect(log.suffix(3) == ["finished", "created a.png", "finished"])
    let results = delegate.results.withLock { $0 }
    #expect(results.first?.metrics.bytesLoaded == (try png()).count)
    #expect(results.last?.cacheType == .memory)
    #expect(loader.startedURLs.count == 1)
  }

  @Test func theDelegateChoosesTheCachePolicyAndTheDownloaderPerRequest() async throws {
    let otherLoader = MockDataLoader()
    let delegate = Recorder(other: downloader(otherLoader))
    let manager = try manager(delegate)
    let privateURL = URL(string: "https://private.example.com/a.png")!
    let otherURL = URL(string: "https://other.example.com/b.png")!
    loader.script(privateURL, .respond(body: try png()))
    otherLoader.script(otherURL, .respond(body: try png()))
    _ = try await manager.image(for: ImageRequest(url: privateURL))
    _ = try await manager.image(for: ImageRequest(url: otherURL))
    await manager.waitForPendingWrites()
    let disk = try #require(manager.configuration.cache.diskCache)
    #expect(try disk.data(forKey: privateURL.absoluteString) == nil)
    #expect(try disk.data(forKey: otherURL.absoluteString) != nil)
    #expect(loader.startedURLs == [privateURL.absoluteString])
    #expect(otherLoader.startedURLs == [otherURL.absoluteString])
  }

  @Test func aTierReadErrorReachesTheDelegate() async throws {
    let url = URL(string: "https://images.example.com/c.png")!
    loader.script(url, .respond(body: try png()))
    let remote = InMemoryStorage()
    remote.failReads(with: MagpieError(.network, "the remote tier is down"))
    let delegate = Recorder()
    _ = try await manager(delegate, tiers: [CacheTier(remote)]).image(for: ImageRequest(url: url))
    #expect(delegate.log.withLock { $0 }.contains("read failed remote"))
  }
}
