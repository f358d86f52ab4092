import Foundation
import Testing

@testable import Magpie

/// Decodes wait for their slot by task priority, and raising a task's
/// priority while its decode waits moves it ahead.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerPriorityTests {
  let loader = MockDataLoader()
  let coder = GatedCoder()
  let events = EngineEventLog()

  /// A memory-only manager that decodes one image at a time.
  private func manager(processing: Int = ProcessInfo.processInfo.activeProcessorCount) -> ImageManager {
    let cache = ImageCache(
      memoryCache: .frozen(totalCost: 64 << 20), diskCache: nil, trimsOnMemoryPressure: false)
    let downloader = ImageDownloader(
      configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil, sleep: { _ in }))
    var configuration = ImageManager.Configuration(
      cache: cache, downloader: downloader, registry: CoderRegistry(builtIn: [coder]),
      concurrency: .init(decodes: 1, processing: processing))
    configuration.engineObserver = events.observer
    return ImageManager(configuration: configuration)
  }

  /// An opaque PNG `width` pixels wide, so each decode names its image.
  private func png(width: Int) throws -> Data {
    let bytes = [UInt8](repeating: 200, count: width * 4 * 4).enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }
    return try CoderRegistry.shared.encode(
      Image(pixels: PixelBuffer(width: width, height: 4, straightRGBA: bytes)), as: .png)
  }

  private func url(_ width: Int) -> URL { URL(string: "https://images.example.com/\(width).png")! }

  @Test func queuedDecodesRunInPriorityOrderAndARaisedTaskMovesAhead() async throws {
    let manager = manager()
    for width in [10, 11, 12, 13] { loader.script(url(width), .respond(body: try png(width: width))) }
    // The first load takes the only decode slot and holds it.
    let first = manager.loadImage(with: ImageRequest(url: url(10)), callbackQueue: .immediate) { _ in }
    await coder.started.wait(for: 1)
    // Three more queue behind it, lowest to highest priority...
    var tasks = [first]
    for (width, priority) in [(11, ImageRequest.Priority.low), (12, .normal), (13, .high)] {
      var request = ImageRequest(url: url(width))
      request.priority = priority
      tasks.append(manager.loadImage(with: request, callbackQueue: .immediate) { _ in })
      await events.waitUntil(waiting: tasks.count - 1, in: .decode)
    }
    // ...and the lowest is raised above them all while it waits.
    tasks[1].priority = .veryHigh
    coder.open()
    for task in tasks { _ = try await task.response }
    #expect(coder.decodedWidths == [10, 11, 13, 12])
  }

  @Test func queuedProcessingRunsInPriorityOrderAndARaisedTaskMovesAhead() async throws {
    let manager = manager(processing: 1)
    let gate = GatedProcessor.Gate()
    coder.open()
    for width in [20, 21, 22, 23] { loader.script(url(width), .respond(body: try png(width: width))) }
    var tasks: [ImageTask] = []
    for (index, priority) in [ImageRequest.Priority.normal, .low, .normal, .high].enumerated() {
      var request = ImageRequest(url: url(20 + index), processors: [GatedProcessor(tag: index, gate: gate)])
      request.priority = priority
      tasks.append(manager.loadImage(with: request, callbackQueue: .immediate) { _ in })
      // The first pass takes the only processing slot; the rest queue.
      if index == 0 {
        await gate.started.wait(for: 1)
      } else {
        await events.waitUntil(waiting: index, in: .process)
      }
    }
    tasks[1].priority = .veryHigh
    gate.open()
    for task in tasks { _ = try await task.response }
    #expect(gate.tags == [0, 1, 3, 2])
  }
}
