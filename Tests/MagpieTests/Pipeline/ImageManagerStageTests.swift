import Foundation
import Testing

@testable import Magpie

/// The stages as a graph: requests for one URL with different processor
/// chains share one fetch and one decode, each chain runs its own pass,
/// and shared work stops only when every task that needs it is cancelled.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerStageTests {
  let loader = MockDataLoader()
  let coder = CountingCoder()
  let passes = CountingProcessor.Passes()
  let directory: TemporaryDirectory
  let events = EngineEventLog()

  init() throws {
    directory = try TemporaryDirectory()
  }

  private func manager() throws -> ImageManager {
    let disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
    let cache = ImageCache(
      memoryCache: .frozen(totalCost: 64 << 20), diskCache: disk, trimsOnMemoryPressure: false)
    let downloader = ImageDownloader(
      configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil, sleep: { _ in }))
    var configuration = ImageManager.Configuration(
      cache: cache, downloader: downloader, registry: CoderRegistry(builtIn: [coder]))
    configuration.engineObserver = events.observer
    return ImageManager(configuration: configuration)
  }

  private let url = URL(string: "https://images.example.com/chains.png")!

  private func png() throws -> Data {
    var bytes = [UInt8]()
    for y in 0..<12 {
      for x in 0..<20 { bytes += [UInt8(x * 10), UInt8(y * 20), 77, 255] }
    }
    return try CoderRegistry.shared.encode(
      Image(pixels: PixelBuffer(width: 20, height: 12, straightRGBA: bytes)), as: .png)
  }

  /// Three requests for `url`, each with a chain of its own.
  private func requests() -> [ImageRequest] {
    (1...3).map { tag in ImageRequest(url: url, processors: [CountingProcessor(tag: UInt8(tag * 50), passes: passes)]) }
  }

  /// Starts `requests` with the transfer held until every one has joined
  /// the shared decode stage.
  private func start(_ requests: [ImageRequest], on manager: ImageManager, done: AsyncCounter)
    async -> ([ImageTask], Locked<[Int: Result<ImageResult, MagpieError>]>)
  {
    let outcomes = Locked<[Int: Result<ImageResult, MagpieError>]>([:])
    let tasks = requests.enumerated().map { index, request in
      manager.loadImage(with: request, callbackQueue: .immediate) { result in
        outcomes.withLock { $0[index] = result }
        done.increment()
      }
    }
    await events.waitUntil(subscribers: requests.count, in: .decode)
    await loader.waitForStarts(1)
    return (tasks, outcomes)
  }

  @Test func threeChainsOverOneURLShareOneLoadAndOneDecodeAndRunThreePasses() async throws {
    loader.script(url, .respond(body: try png()))
    loader.suspend()
    let manager = try manager()
    let done = AsyncCounter()
    let (_, outcomes) = await start(requests(), on: manager, done: done)
    #expect(manager.decodes.count == 1)
    #expect(manager.fetches.count == 1)
    loader.resume()
    await done.wait(for: 3)
    let results = try (0..<3).map { try #require(outcomes.value[$0]).get() }
    #expect(loader.startedURLs.count == 1)
    #expect(coder.decodes == 1)
    #expect(passes.value == 3)
    // Each chain made its own pixels from the shared decode.
    #expect(results.map { $0.image.pixels[0, 0].x } == [50, 100, 150])
    #expect(results.allSatisfy { $0.cacheType == .none && $0.image.pixelSize == PixelSize(width: 20, height: 12) })
  }

  @Test func cancellingTwoOfThreeKeepsTheSharedStagesRunningForTheThird() async throws {
    loader.script(url, .respond(body: try png()))
    loader.suspend()
    let manager = try manager()
    let done = AsyncCounter()
    let (tasks, outcomes) = await start(requests(), on: manager, done: done)
    tasks[0].cancel()
    tasks[1].cancel()
    await done.wait(for: 2)
    loader.resume()
    await done.wait(for: 3)
    for index in 0..<2 {
      guard case .failure(let error)? = outcomes.value[index] else {
        Issue.record("cancelled task \(index) did not fail")
        continue
      }
      #expect(error.code == .cancelled)
    }
    #expect(try outcomes.value[2]?.get().image.pixels[0, 0].x == 150)
    #expect(loader.cancelledURLs.isEmpty)
    #expect(loader.startedURLs.count == 1)
    #expect(coder.decodes == 1)
    #expect(passes.value == 1)
  }

  @Test func cancellingEveryChainStopsTheDownload() async throws {
    loader.script(url, .respond(body: try png()))
    loader.suspend()
    let manager = try manager()
    let done = AsyncCounter()
    let (tasks, _) = await start(requests(), on: manager, done: done)
    for task in tasks { task.cancel() }
    await done.wait(for: 3)
    await loader.waitForCancels(1)
    #expect(loader.cancelledURLs == [url.absoluteString])
    #expect(coder.decodes == 0)
    #expect(passes.value == 0)
  }
}
