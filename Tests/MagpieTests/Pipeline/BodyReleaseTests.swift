import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A finished load keeps nothing: its stages, and the body they hold, go
/// once the caller drops the result, however early the loader's callback
/// came. (A stop kept after its step had ended held the step's callbacks,
/// which held the stage: a cold `magpie serve` kept one body in twenty.)
@Suite(.timeLimit(Sanitizer.timeLimit(minutes: 2))) struct BodyReleaseTests {
  /// The step that ended before its stop was kept drops that stop.
  @Test func aStopKeptAfterItsStepEndedIsDropped() {
    var step = StageStep.State()
    let first = step.begin()
    step.end(first)
    #expect(step.keep({}, for: first) == nil)
    #expect(step.stop == nil)
    // A stop for an earlier step, kept once the next has begun, is dropped.
    let second = step.begin()
    let third = step.begin()
    _ = step.keep({}, for: second)
    #expect(step.stop == nil)
    _ = step.keep({}, for: third)
    #expect(step.stop != nil)
    step.end(third)
    #expect(step.stop == nil)
  }

  /// A cancellation before the stop is kept runs the stop once it is.
  @Test func aStopKeptAfterTheCancellationRunsAtOnce() {
    var step = StageStep.State()
    let token = step.begin()
    #expect(step.cancel() == nil)
    #expect(step.keep({}, for: token) != nil)
    #expect(step.cancel() != nil)
  }

  @Test func downloadsThatEndBeforeTheirStopIsKeptKeepNothing() async throws {
    let loader = try InstantQueueingLoader(serving: Self.sample())
    let downloader = ImageDownloader(configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil))
    var stages: [WeakReference] = []
    for index in 0..<20 {
      let subscription = downloader.subscribe(
        URLRequest(url: URL(string: "https://example.invalid/\(index).jpg")!), priority: .normal, observer: nil)
      stages.append(WeakReference(subscription.stage))
      _ = try await subscription.value()
    }
    #expect(stages.filter { $0.object != nil }.count == 0)
    #expect(loader.liveBodies.withLock { $0 } == 0)
  }

  @Test func imageLoadsThatEndBeforeTheirStopsAreKeptKeepNoBody() async throws {
    let loader = try InstantQueueingLoader(serving: Self.sample())
    let downloader = ImageDownloader(configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil))
    let manager = ImageManager(
      configuration: .init(
        cache: ImageCache(
          memoryCache: MemoryCache(limits: .init(totalCost: 0)), tiers: [], trimsOnMemoryPressure: false),
        downloader: downloader))
    for index in 0..<20 {
      var request = ImageRequest(url: URL(string: "https://example.invalid/\(index).jpg")!)
      request.options.formUnion([.disableMemoryCacheReads, .disableMemoryCacheWrites, .cacheMemoryOnly])
      let result = try await manager.image(for: request)
      #expect(result.image.size.width > 0)
    }
    // The decode's end is reported from the decode queue's thread, which
    // may still be returning from it.
    for _ in 0..<100_000 where loader.liveBodies.withLock({ $0 }) != 0 { await Task.yield() }
    #expect(loader.liveBodies.withLock { $0 } == 0)
  }

  private static func sample() throws -> Data {
    try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/photo-00.jpg"))
  }
}
