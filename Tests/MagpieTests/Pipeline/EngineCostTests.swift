import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What one load costs the engine, pinned (docs/pipeline.md draws the
/// path): the tasks one network miss makes, and the locks one progress
/// event passes on its way from the download to the caller's callback.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct EngineCostTests {
  let directory: TemporaryDirectory
  let root: URL

  init() throws {
    directory = try TemporaryDirectory()
    root = try directory.servingSamples(["cutout-01.png"])
  }

  /// Counts the engine's events by kind.
  final class Tally: Sendable {
    private let made = Lock<[EngineEvent.TaskPurpose: Int]>([:])
    var observer: @Sendable (EngineEvent) -> Void {
      { event in if case .taskMade(let purpose) = event { self.made.withLock { $0[purpose, default: 0] += 1 } } }
    }
    var tasks: [EngineEvent.TaskPurpose: Int] { made.withLock { $0 } }
  }

  /// Over libcurl, a miss makes a task for its job and for the disk write
  /// after delivery; the download, the fetch and the decode make none (the
  /// libcurl thread starts the transfer and delivers its end to the fetch,
  /// whose end queues the decode, whose end completes the job's wait).
  /// Before the engine issue: 5, one each.
  @Test func oneNetworkMissMakesTwoTasks() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let tally = Tally()
    let disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
    var downloads = ImageDownloader.Configuration(dataLoader: CurlDataLoader(), rateLimit: nil)
    downloads.engineObserver = tally.observer
    var configuration = ImageManager.Configuration(
      cache: ImageCache(memoryCache: .frozen(), diskCache: disk, trimsOnMemoryPressure: false),
      downloader: ImageDownloader(configuration: downloads))
    configuration.engineObserver = tally.observer
    let manager = ImageManager(configuration: configuration)
    let result = try await manager.image(for: ImageRequest(url: origin.url("/cutout-01.png")))
    #expect(result.cacheType == .none)
    await manager.waitForPendingWrites()
    #expect(tally.tasks == [.job: 1, .store: 1])
    #expect(tally.tasks.values.reduce(0, +) == 2)
  }

  /// A progress event crosses the download, fetch and decode stages and
  /// the job in one hold of the engine lock, then takes the task's lock,
  /// then the caller's callback runs on the same thread: 2 (5 before the
  /// engine issue: one per stage, the job's and the task's). Counted on
  /// the calling thread (debug builds count every ``Lock`` and every take
  /// of the ``EngineLock``).
  @Test func oneProgressEventPassesTwoLocks() async throws {
    let loader = MockDataLoader()
    loader.suspend()
    let downloader = ImageDownloader(configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil))
    let manager = ImageManager(
      configuration: .init(
        cache: ImageCache(memoryCache: .frozen(), diskCache: nil, trimsOnMemoryPressure: false),
        downloader: downloader))
    let url = URL(string: "https://images.example.com/progress.png")!
    let seen = Lock<[ImageTask.Progress]>([])
    let task = manager.loadImage(
      with: ImageRequest(url: url), callbackQueue: .immediate,
      progress: { progress in seen.withLock { $0.append(progress) } }
    ) { _ in }
    await loader.waitForStarts(1)
    // The transfer the load waits on: joined, not started again.
    let download = downloader.subscribe(URLRequest(url: url), priority: .normal, observer: nil)
    let before = LockCounting.count
    download.stage.send(.progress(received: 10, expected: 100))
    let locks = LockCounting.count - before
    #expect(seen.withLock { $0 } == [ImageTask.Progress(completed: 10, total: 100)])
    // The callback's own append is not the engine's.
    #expect(locks - 1 == 2)
    download.cancel()
    task.cancel()
  }

  /// A task's new priority reaches the download waiting in the line below
  /// its job, decode and fetch in one hold of the engine lock: the task's
  /// lock, the engine's, then the slot's and the line's (where the
  /// transfer moves ahead of one that waited before it): 4. Before the
  /// engine issue the job's and each stage's lock and closure were passed
  /// in turn: 7.
  @Test func aPriorityChangeReachesTheLineInOneEngineHold() async throws {
    let loader = MockDataLoader()
    loader.suspend()
    let events = EngineEventLog()
    var downloads = ImageDownloader.Configuration(
      dataLoader: loader, maximumConcurrentDownloads: 1, retryPolicy: .never, rateLimit: nil)
    downloads.engineObserver = events.observer
    let manager = ImageManager(
      configuration: .init(
        cache: ImageCache(memoryCache: .frozen(), diskCache: nil, trimsOnMemoryPressure: false),
        downloader: ImageDownloader(configuration: downloads)))
    let urls = (0..<3).map { URL(string: "https://images.example.com/line-\($0).png")! }
    // The first holds the only slot; the next two wait, the last one lowest.
    var tasks: [ImageTask] = []
    for (index, priority) in [ImageRequest.Priority.normal, .normal, .low].enumerated() {
      var request = ImageRequest(url: urls[index])
      request.priority = priority
      tasks.append(manager.imageTask(with: request))
      if index == 0 { await loader.waitForStarts(1) } else { await events.waitUntil(waiting: index, in: .download) }
    }
    let before = LockCounting.count
    tasks[2].priority = .high
    let locks = LockCounting.count - before
    #expect(locks == 4)
    loader.resume()
    for task in tasks { _ = try? await task.response }
    #expect(loader.startedURLs == [urls[0], urls[2], urls[1]].map(\.absoluteString))
  }
}
