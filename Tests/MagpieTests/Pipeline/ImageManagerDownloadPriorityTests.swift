import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A task's priority moves its download among those waiting for a slot.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerDownloadPriorityTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @Test func changingATaskPriorityMovesItsDownload() async throws {
    loader.suspend()
    let manager = try manager(maximumDownloads: 1)
    let done = AsyncCounter()
    _ = manager.loadImage(with: ImageRequest(url: url("busy.png")), callbackQueue: .immediate) { _ in done.increment() }
    await loader.waitForStarts(1)
    let late = manager.loadImage(with: ImageRequest(url: url("late.png")), callbackQueue: .immediate) { _ in
      done.increment()
    }
    _ = manager.loadImage(with: ImageRequest(url: url("early.png")), callbackQueue: .immediate) { _ in done.increment()
    }
    // Jobs subscribe to their downloads from their own tasks; wait until
    // both are queued.
    await events.waitUntil(waiting: 2, in: .download)
    late.priority = .veryHigh
    loader.resume()
    await done.wait(for: 3)
    #expect(loader.startedURLs.map { URL(string: $0)!.lastPathComponent } == ["busy.png", "late.png", "early.png"])
  }
}
