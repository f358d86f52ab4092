import Foundation
import Testing

@testable import Magpie

/// One configuration struct holds every stage's limit, and the manager
/// applies it to each stage.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerConcurrencyTests {
  let loader = MockDataLoader()
  let events = EngineEventLog()

  private func downloader() -> ImageDownloader {
    ImageDownloader(configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil, sleep: { _ in }))
  }

  private func cache() -> ImageCache {
    ImageCache(
      memoryCache: .frozen(totalCost: 16 << 20), diskCache: nil, trimsOnMemoryPressure: false)
  }

  @Test func theDownloadLimitReachesTheDownloaderAndHoldsTransfersBack() async throws {
    let downloader = downloader()
    #expect(downloader.maximumConcurrentDownloads == 6)
    var configuration = ImageManager.Configuration(
      cache: cache(), downloader: downloader, concurrency: .init(downloads: 2, decodes: 1, processing: 3))
    configuration.engineObserver = events.observer
    let manager = ImageManager(configuration: configuration)
    #expect(downloader.maximumConcurrentDownloads == 2)
    #expect(manager.configuration.concurrency.decodes == 1)
    #expect(manager.configuration.concurrency.processing == 3)
    loader.suspend()
    let urls = (0..<4).map { URL(string: "https://images.example.com/\($0).png")! }
    let done = AsyncCounter()
    for url in urls {
      manager.loadImage(with: ImageRequest(url: url), callbackQueue: .immediate) { _ in done.increment() }
    }
    await loader.waitForStarts(2)
    await events.waitUntil(subscribers: 4, in: .fetch)
    // With a limit of 2, no third transfer can have started.
    #expect(loader.startedURLs.count == 2)
    // Raising the limit at run time starts the waiting transfers.
    downloader.setMaximumConcurrentDownloads(4)
    await loader.waitForStarts(4)
    loader.resume()
    await done.wait(for: 4)
  }

  @Test func withoutAConcurrencyTheDownloaderKeepsItsOwnLimit() {
    let downloader = ImageDownloader(
      configuration: .init(dataLoader: loader, maximumConcurrentDownloads: 3, retryPolicy: .never, rateLimit: nil))
    let manager = ImageManager(
      configuration: .init(cache: cache(), downloader: downloader))
    #expect(manager.configuration.concurrency == .init(downloads: 3))
    #expect(downloader.maximumConcurrentDownloads == 3)
  }
}
