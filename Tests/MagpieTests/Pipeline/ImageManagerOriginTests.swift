import Foundation
import Testing

@testable import Magpie

/// The whole pipeline against real origins: nginx for what a good server
/// does, the fault-injecting origin for what a bad one does.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct ImageManagerOriginTests {
  let directory: TemporaryDirectory
  let events = EngineEventLog()
  let root: URL

  init() throws {
    directory = try TemporaryDirectory()
    root = try directory.servingSamples(["photo-00.jpg", "photo-02.jpg", "cutout-01.png", "pan-00.gif"])
  }

  private func manager(
    timeout: Duration = .seconds(15), resourceTimeout: Duration = .seconds(60), maximumBody: Int64 = 64 << 20,
    retry: RetryPolicy = RetryPolicy()
  ) throws -> ImageManager {
    let disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
    let loader = CurlDataLoader(
      configuration: DataLoaderConfiguration(
        timeout: timeout, resourceTimeout: resourceTimeout, maximumBodySize: maximumBody))
    let downloader = ImageDownloader(
      configuration: .init(dataLoader: loader, retryPolicy: retry, rateLimit: nil, sleep: { _ in }))
    var configuration = ImageManager.Configuration(
      cache: ImageCache(memoryCache: .frozen(), diskCache: disk, trimsOnMemoryPressure: false), downloader: downloader)
    configuration.engineObserver = events.observer
    return ImageManager(configuration: configuration)
  }

  private var sample: Data {
    get throws { try Data(contentsOf: root.appendingPathComponent("cutout-01.png")) }
  }

  @Test func aHundredRequestsForOneURLReachTheOriginOnce() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let manager = try manager()
    let url = origin.url("/photo-00.jpg")
    let sizes = Locked<[PixelSize]>([])
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<100 {
        group.addTask {
          if let result = try? await manager.image(for: ImageRequest(url: url)) {
            sizes.withLock { $0.append(result.image.pixelSize) }
          }
        }
      }
    }
    #expect(sizes.value.count == 100)
    #expect(Set(sizes.value) == [PixelSize(width: 1600, height: 1067)])
    #expect(try origin.requestCount("/photo-00.jpg") == 1)
  }

  @Test func cancellingAllButOneLeavesTheLastCompleteAndCancellingAllClosesTheConnection() async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    let body = try sample
    origin.route("/slow.png", .delayHeaders(.milliseconds(400), body))
    origin.route("/stalled.png", .stallMidBody(body, sent: 1000))
    let manager = try manager()

    let done = AsyncCounter()
    let outcomes = Locked<[Int: Result<ImageResult, MagpieError>]>([:])
    let tasks = (0..<100).map { index in
      manager.loadImage(with: ImageRequest(url: origin.url("/slow.png")), callbackQueue: .immediate) { result in
        outcomes.withLock { $0[index] = result }
        done.increment()
      }
    }
    #expect(await origin.waitForRequests("/slow.png"))
    for task in tasks.dropLast() { task.cancel() }
    await done.wait(for: 100)
    #expect((try? outcomes.value[99]?.get())?.cacheType == CacheType.none)
    #expect(outcomes.value.values.filter { (try? $0.get()) == nil }.count == 99)
    #expect(origin.requestCount("/slow.png") == 1)

    let stalled = (0..<10).map { _ in
      manager.loadImage(with: ImageRequest(url: origin.url("/stalled.png")), callbackQueue: .immediate) { _ in
        done.increment()
      }
    }
    #expect(await origin.waitForRequests("/stalled.png"))
    for task in stalled { task.cancel() }
    await done.wait(for: 110)
    #expect(await origin.waitForClientClose("/stalled.png"))
  }

  @Test func threeChainsMakeOneRequestAndCancellingThemAllClosesTheConnection() async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    origin.route("/chains.png", .stallMidBody(try sample, sent: 1000))
    let manager = try manager()
    let chains: [[any ImageProcessor]] = [
      [ImageProcessors.BlackWhite()], [ImageProcessors.Flip(.vertical)], [ImageProcessors.Blur(radius: 1)],
    ]
    let done = AsyncCounter()
    let tasks = chains.map { chain in
      manager.loadImage(
        with: ImageRequest(url: origin.url("/chains.png"), processors: chain), callbackQueue: .immediate
      ) { _ in done.increment() }
    }
    await events.waitUntil(subscribers: 3, in: .decode)
    #expect(await origin.waitForRequests("/chains.png"))
    // Two leave: the shared download goes on for the third.
    tasks[0].cancel()
    tasks[1].cancel()
    await done.wait(for: 2)
    #expect(manager.fetches.count == 1)
    tasks[2].cancel()
    await done.wait(for: 3)
    #expect(await origin.waitForClientClose("/chains.png"))
    #expect(origin.requestCount("/chains.png") == 1)
  }

  @Test func everyFaultIsATypedErrorInTimeAndLeavesTheCacheEmpty() async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    let body = try sample
    origin.route("/good.png", .ok(body))
    origin.route("/stall.png", .stall)
    origin.route("/stall-mid-body.png", .stallMidBody(body, sent: 500))
    origin.route("/drop.png", .dropMidBody(body, after: 500))
    origin.route("/short.png", .shortBody(Data(body.prefix(800)), declared: body.count))
    origin.route("/endless.png", .endless(prefix: Data(body.prefix(64))))
    origin.route("/loop-a", .redirect(status: 302, location: "/loop-b"))
    origin.route("/loop-b", .redirect(status: 302, location: "/loop-a"))
    origin.route("/slowloris.png", .slowloris(body, interval: .milliseconds(100)))
    origin.route("/error-page.png", .html("<html><body>Not here</body></html>"))
    origin.route("/missing.png", .status(404))
    let manager = try manager(
      timeout: .milliseconds(800), resourceTimeout: .seconds(2), maximumBody: 1 << 20, retry: .never)
    let cases: [(String, MagpieError.Code)] = [
      ("/stall.png", .timedOut), ("/stall-mid-body.png", .timedOut), ("/drop.png", .network),
      ("/short.png", .invalidResponse), ("/endless.png", .invalidResponse), ("/loop-a", .invalidResponse),
      ("/slowloris.png", .timedOut), ("/error-page.png", .invalidResponse), ("/missing.png", .httpStatus),
    ]
    for (path, code) in cases {
      await #expect {
        _ = try await manager.image(for: ImageRequest(url: origin.url(path)))
      } throws: { error in
        (error as? MagpieError)?.code == code
      }
      // A loader that ignored its timeouts would not finish at all, and the
      // suite's time limit fails the test. The loader's own tests time each
      // limit; here a wall-clock bound would time the whole suite's
      // scheduling too (one case read 6.6 s on a loaded machine).
      await manager.waitForPendingWrites()
      #expect(try manager.configuration.cache.diskCache?.count() == 0, "\(path) left a file")
      // And the manager is ready for the next request.
      let good = try await manager.image(for: ImageRequest(url: origin.url("/good.png"), options: [.cacheMemoryOnly]))
      #expect(good.image.pixelSize == PixelSize(width: 400, height: 400))
    }
  }

  @Test func aRetried503SucceedsWhenTheOriginRecovers() async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    origin.route("/busy.png", .failing(times: 2, status: 503, retryAfter: "1", then: try sample))
    let manager = try manager(retry: RetryPolicy(maximumAttempts: 3))
    let result = try await manager.image(for: ImageRequest(url: origin.url("/busy.png")))
    #expect(result.metrics.attempts == 3)
    #expect(origin.requestCount("/busy.png") == 3)
  }

  @Test func refreshCachedRevalidatesWithTheOrigin() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let manager = try manager()
    let url = origin.url("/cutout-01.png")
    let first = try await manager.image(for: ImageRequest(url: url))
    await manager.waitForPendingWrites()

    let kept = try await manager.image(for: ImageRequest(url: url, options: [.refreshCached]))
    #expect(kept.metrics.revalidated)
    #expect(kept.metrics.bytesLoaded == 0)
    #expect(kept.image.pixels == first.image.pixels)

    // The file changes on the origin: a new ETag, and the caches follow.
    let replacement = try Data(contentsOf: root.appendingPathComponent("photo-02.jpg"))
    try replacement.write(to: root.appendingPathComponent("cutout-01.png"))
    let changed = try await manager.image(for: ImageRequest(url: url, options: [.refreshCached]))
    #expect(changed.cacheType == CacheType.none)
    #expect(changed.image.pixelSize == PixelSize(width: 1024, height: 768))
    await manager.waitForPendingWrites()
    manager.configuration.cache.clearMemory()
    #expect(try await manager.image(for: ImageRequest(url: url)).image.pixelSize == PixelSize(width: 1024, height: 768))
    #expect(try origin.requestCount("/cutout-01.png") == 3)
  }

  @Test func aMissingImageIsNotRequestedAgainUnlessAsked() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let manager = try manager()
    let url = origin.url("/nowhere.png")
    for _ in 0..<3 {
      await #expect {
        _ = try await manager.image(for: ImageRequest(url: url))
      } throws: { error in
        (error as? MagpieError)?.statusCode == 404
      }
    }
    #expect(try origin.requestCount("/nowhere.png") == 1)
    await #expect(throws: MagpieError.self) {
      _ = try await manager.image(for: ImageRequest(url: url, options: [.retryFailed]))
    }
    #expect(try origin.requestCount("/nowhere.png") == 2)
  }
}
