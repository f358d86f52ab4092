import Foundation
import Testing

@testable import Magpie

/// `imageTask(with:)`, the front door, and its one cancellation rule: a
/// load stops when its task is cancelled, by `cancel()` or by cancelling
/// the Swift task that awaits it.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageTaskFrontDoorTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @Test func aTaskLoadsAndAMemoryHitIsATaskAlreadyFinished() async throws {
    loader.script(url("a.png"), .respond(body: try png()))
    let manager = try manager()
    let task = manager.imageTask(with: ImageRequest(url: url("a.png")))
    let image = try await task.image
    #expect(image.pixelSize == PixelSize(width: 40, height: 30))
    #expect(try await task.response.cacheType == .none)
    let hit = manager.imageTask(with: ImageRequest(url: url("a.png")))
    var events: [ImageTask.Event] = []
    for await event in hit.events { events.append(event) }
    guard case .finished(.success(let result))? = events.first, events.count == 1 else {
      Issue.record("expected a finished task, got \(events)")
      return
    }
    #expect(result.cacheType == .memory)
    #expect(loader.startedURLs.count == 1)
  }

  @Test func cancellingTheSwiftTaskAwaitingATaskCancelsTheLoad() async throws {
    loader.suspend()
    let manager = try manager()
    let imageTask = manager.imageTask(with: ImageRequest(url: url("slow.png")))
    let waiting = Task { try await imageTask.response }
    await loader.waitForStarts(1)
    waiting.cancel()
    let result = await waiting.result
    guard case .failure(let error) = result else {
      Issue.record("expected a cancellation")
      return
    }
    #expect((error as? MagpieError)?.code == .cancelled)
    #expect(imageTask.isCancelled)
    #expect(loader.cancelledURLs == [url("slow.png").absoluteString])
  }

  @Test func cancellingATaskEndsEveryWaitOnIt() async throws {
    loader.suspend()
    let manager = try manager()
    let imageTask = manager.imageTask(with: ImageRequest(url: url("slow.png")))
    let waiting = Task { try await imageTask.image }
    await loader.waitForStarts(1)
    imageTask.cancel()
    let result = await waiting.result
    guard case .failure(let error) = result else {
      Issue.record("expected a cancellation")
      return
    }
    #expect((error as? MagpieError)?.code == .cancelled)
    #expect(loader.cancelledURLs == [url("slow.png").absoluteString])
  }
}
