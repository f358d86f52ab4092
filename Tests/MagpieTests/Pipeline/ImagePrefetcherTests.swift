import Foundation
import Testing

@testable import Magpie

@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImagePrefetcherTests {
  let loader = MockDataLoader()
  let directory: TemporaryDirectory
  let events = EngineEventLog()

  init() throws { directory = try TemporaryDirectory() }

  private func manager(maximumDownloads: Int = 6) throws -> ImageManager {
    let disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
    let cache = ImageCache(memoryCache: .frozen(), diskCache: disk, trimsOnMemoryPressure: false)
    var downloads = ImageDownloader.Configuration(
      dataLoader: loader, maximumConcurrentDownloads: maximumDownloads, retryPolicy: .never, rateLimit: nil)
    downloads.engineObserver = events.observer
    return ImageManager(configuration: .init(cache: cache, downloader: ImageDownloader(configuration: downloads)))
  }

  private func url(_ index: Int) -> URL { URL(string: "https://images.example.com/\(index).png")! }

  private func png(_ seed: Int) throws -> Data {
    let bytes = (0..<(6 * 4 * 4)).map { UInt8(($0 * 11 + seed) % 256) | ($0 % 4 == 3 ? 255 : 0) }
    return try CoderRegistry.shared.encode(
      Image(pixels: PixelBuffer(width: 6, height: 4, straightRGBA: bytes)), as: .png)
  }

  @Test func countsFinishedSkippedAndFailed() async throws {
    let manager = try manager()
    for index in 0..<20 {
      if index % 10 == 9 {
        loader.script(url(index), .fail(MagpieError(.httpStatus, "HTTP 404", statusCode: 404)))
      } else {
        loader.script(url(index), .respond(body: try png(index)))
      }
    }
    // Five are cached already.
    for index in 0..<5 { _ = try await manager.image(for: ImageRequest(url: url(index))) }
    let startedBefore = loader.startedURLs.count
    let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 3)
    let seen = Locked<[ImagePrefetcher.Progress]>([])
    let result = await prefetcher.prefetch((0..<20).map { ImageRequest(url: url($0)) }) { progress in
      seen.withLock { $0.append(progress) }
    }
    #expect(result == ImagePrefetcher.Progress(total: 20, finished: 13, skipped: 5, failed: 2))
    #expect(loader.startedURLs.count - startedBefore == 15)
    #expect(seen.value.map(\.completed) == Array(1...20))
    #expect(try await manager.image(for: ImageRequest(url: url(12))).cacheType == .memory)
    let report = prefetcher.report
    #expect(Set(report.skipped.compactMap(\.url)) == Set((0..<5).map(url)))
    #expect(Set(report.failed.compactMap(\.url)) == [url(9), url(19)])
    #expect(Set(report.finished.compactMap(\.url)) == Set((5..<20).filter { $0 % 10 != 9 }.map(url)))
  }

  @Test func aPausedPrefetcherStartsNothingUntilResumed() async throws {
    let manager = try manager()
    for index in 0..<4 { loader.script(url(index), .respond(body: try png(index))) }
    let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 2)
    prefetcher.pause()
    #expect(prefetcher.isPaused)
    prefetcher.start((0..<4).map { ImageRequest(url: url($0)) })
    // Starting is synchronous: a paused prefetcher made no task to start.
    #expect(prefetcher.progress.completed == 0)
    #expect(loader.startedURLs.isEmpty)
    prefetcher.resume()
    let result = await prefetcher.prefetch([])
    #expect(result == ImagePrefetcher.Progress(total: 4, finished: 4, skipped: 0, failed: 0))
    #expect(loader.startedURLs.count == 4)
  }

  @Test func stoppingSomeRequestsCancelsTheRunningOneAndDropsTheWaitingOne() async throws {
    let manager = try manager()
    for index in 0..<6 { loader.script(url(index), .respond(body: try png(index))) }
    loader.suspend()
    let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 2)
    prefetcher.start((0..<6).map { ImageRequest(url: url($0)) })
    await loader.waitForStarts(2)
    prefetcher.stop([ImageRequest(url: url(0)), ImageRequest(url: url(3))])
    await loader.waitForCancels(1)
    loader.resume()
    let result = await prefetcher.prefetch([])
    #expect(result == ImagePrefetcher.Progress(total: 6, finished: 4, skipped: 0, failed: 2))
    #expect(loader.cancelledURLs == [url(0).absoluteString])
    #expect(!loader.startedURLs.contains(url(3).absoluteString))
    #expect(prefetcher.report.failed.compactMap(\.url) == [url(3), url(0)])
    #expect(Set(prefetcher.report.finished.compactMap(\.url)) == [url(1), url(2), url(4), url(5)])
  }

  @Test func neverRunsMoreThanItsLimit() async throws {
    let manager = try manager()
    loader.suspend()
    let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 2)
    prefetcher.start((0..<8).map { ImageRequest(url: url($0)) })
    await loader.waitForStarts(2)
    // Let any third start that would break the limit reach the loader.
    for _ in 0..<100 { await Task.yield() }
    #expect(loader.startedURLs.count == 2)
    loader.resume()
    let result = await prefetcher.prefetch([])
    #expect(result.completed == 8)
  }

  @Test func prefetchesWaitBehindNormalLoads() async throws {
    let manager = try manager(maximumDownloads: 1)
    loader.suspend()
    let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 4)
    prefetcher.start((0..<3).map { ImageRequest(url: url($0)) })
    await loader.waitForStarts(1)
    let done = AsyncCounter()
    manager.loadImage(with: ImageRequest(url: url(99)), callbackQueue: .immediate) { _ in done.increment() }
    await events.waitUntil(waiting: 3, in: .download)
    loader.resume()
    await done.wait(for: 1)
    _ = await prefetcher.prefetch([])
    // The prefetches start in any order; the normal load must come second,
    // ahead of the two prefetches that were waiting before it.
    let started = loader.startedURLs.map { URL(string: $0)! }
    #expect(started.count == 4)
    #expect(started.dropFirst().first == url(99))
    #expect(Set(started.filter { $0 != url(99) }) == Set((0..<3).map(url)))
  }

  @Test func cancelAllCountsTheRestAsFailed() async throws {
    let manager = try manager()
    loader.suspend()
    let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 2)
    let requests = (0..<10).map { ImageRequest(url: url($0)) }
    let running = Task { await prefetcher.prefetch(requests) }
    await loader.waitForStarts(2)
    prefetcher.cancelAll()
    let result = await running.value
    #expect(result.total == 10)
    #expect(result.failed == 10)
    #expect(result.completed == 10)
    #expect(Set(loader.cancelledURLs) == Set([url(0), url(1)].map(\.absoluteString)))
  }

  @Test func atNginxAPausedPrefetchSendsNothingAndAStoppedRequestIsNeverAsked() async throws {
    let root = try directory.servingSamples(["cutout-01.png", "cutout-03.png", "cutout-05.png"])
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let manager = ImageManager(
      configuration: .init(
        cache: ImageCache(memoryCache: .frozen(), diskCache: nil, trimsOnMemoryPressure: false),
        downloader: ImageDownloader(
          configuration: .init(dataLoader: CurlDataLoader(), retryPolicy: .never, rateLimit: nil))))
    let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 2)
    let requests = ["/cutout-01.png", "/cutout-03.png", "/cutout-05.png"].map { ImageRequest(url: origin.url($0)) }
    prefetcher.pause()
    prefetcher.start(requests)
    prefetcher.stop([requests[1]])
    prefetcher.resume()
    let result = await prefetcher.prefetch([])
    #expect(result == ImagePrefetcher.Progress(total: 3, finished: 2, skipped: 0, failed: 1))
    #expect(Set(try origin.loggedURIs()) == ["/cutout-01.png", "/cutout-05.png"])
    #expect(prefetcher.report.failed.compactMap(\.url) == [origin.url("/cutout-03.png")])
  }
}
