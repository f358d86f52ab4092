import Foundation
import Testing

@testable import Magpie

@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageTaskEventsTests {
  let loader = MockDataLoader()

  private func manager() -> ImageManager {
    let cache = ImageCache(
      memoryCache: .frozen(), diskCache: nil, trimsOnMemoryPressure: false)
    let downloader = ImageDownloader(
      configuration: .init(
        dataLoader: loader, maximumConcurrentDownloads: 6, retryPolicy: .never, rateLimit: nil, sleep: { _ in }))
    return ImageManager(configuration: ImageManager.Configuration(cache: cache, downloader: downloader))
  }

  private func url(_ name: String) -> URL { URL(string: "https://images.example.com/\(name)")! }

  private func png(width: Int = 40, height: Int = 30) throws -> Data {
    var bytes = [UInt8]()
    for y in 0..<height {
      for x in 0..<width { bytes += [UInt8((x * 5) % 256), UInt8((y * 7) % 256), 9, 255] }
    }
    return try CoderRegistry.shared.encode(
      Image(pixels: PixelBuffer(width: width, height: height, straightRGBA: bytes)), as: .png)
  }

  private func completion(of task: ImageTask) async throws(MagpieError) -> ImageResult {
    try await task.response
  }

  @Test func eventsOfAProgressiveLoadComeInOrderAndEndWithTheFinalImage() async throws {
    let chunks = try ScanChunkedJPEG.progressiveChunks()
    #expect(chunks.count >= 3)
    loader.script(url("p.jpg"), .respondInChunks(chunks: chunks))
    loader.paceChunks()
    // No callbacks at all: the events alone must carry the load.
    let task = manager().loadImage(
      with: ImageRequest(url: url("p.jpg"), options: [.progressiveLoad]), callbackQueue: .immediate
    ) { _ in }
    let partials = AsyncCounter()
    let events = task.events
    let reader = Task {
      var kinds: [String] = []
      var final: Image?
      for await event in events {
        switch event {
        case .progress: kinds.append("progress")
        case .partialImage(let image):
          #expect(image.isPartial)
          kinds.append("partial")
          partials.increment()
        case .finished(let result):
          kinds.append("finished")
          final = try? result.get().image
        }
      }
      return (kinds, final)
    }
    // The first partial must arrive before the rest of the body does.
    loader.allowChunks(2)
    await partials.wait(for: 1)
    loader.allowChunks(chunks.count)
    let (kinds, final) = await reader.value
    #expect(kinds.first == "progress")
    #expect(kinds.last == "finished")
    #expect(kinds.filter { $0 == "finished" }.count == 1)
    let firstPartial = try #require(kinds.firstIndex(of: "partial"))
    #expect(firstPartial > 0)
    #expect(final.map { !$0.isPartial } == true)
    #expect(final?.pixelSize == PixelSize(width: 256, height: 192))
  }

  @Test func progressUpdatesCarryOnlyProgressAndEnd() async throws {
    let body = try png()
    loader.script(url("u.png"), .respond(body: body, chunkSize: 64))
    loader.suspend()
    let task = manager().loadImage(with: ImageRequest(url: url("u.png")), callbackQueue: .immediate) { _ in }
    let updates = task.progressUpdates
    loader.resume()
    var last: ImageTask.Progress?
    for await update in updates { last = update }
    #expect(last?.completed == Int64(body.count))
    #expect(try await completion(of: task).image.pixelSize == PixelSize(width: 40, height: 30))
  }

  @Test func responseIsTheCompletionsResultBeforeAndAfterItFinished() async throws {
    loader.script(url("r.png"), .respond(body: try png()))
    let delivered = Locked<ImageResult?>(nil)
    let done = AsyncCounter()
    let task = manager().loadImage(with: ImageRequest(url: url("r.png")), callbackQueue: .immediate) { result in
      delivered.withLock { $0 = try? result.get() }
      done.increment()
    }
    let awaited = try await task.response
    await done.wait(for: 1)
    let completed = try #require(delivered.value)
    #expect(awaited.image.pixels == completed.image.pixels)
    #expect(awaited.cacheType == completed.cacheType)
    // Asked again once finished: the kept result, at once.
    let again = try await task.response
    #expect(again.image.pixels == completed.image.pixels)
    var afterwards: [ImageTask.Event] = []
    for await event in task.events { afterwards.append(event) }
    #expect(afterwards.count == 1)
    if case .finished(.success(let result))? = afterwards.first {
      #expect(result.image.pixels == completed.image.pixels)
    } else {
      Issue.record("expected only finished, got \(afterwards)")
    }
  }

  @Test func aCancelledTasksResponseThrowsCancelled() async throws {
    loader.script(url("c.png"), .respond(body: try png()))
    loader.suspend()
    let task = manager().loadImage(with: ImageRequest(url: url("c.png")), callbackQueue: .immediate) { _ in }
    let events = task.events
    await loader.waitForStarts(1)
    task.cancel()
    do {
      _ = try await task.response
      Issue.record("a cancelled task returned a result")
    } catch {
      #expect(error.code == .cancelled)
    }
    var last: ImageTask.Event?
    for await event in events { last = event }
    if case .finished(.failure(let error))? = last {
      #expect(error.code == .cancelled)
    } else {
      Issue.record("expected finished with cancelled, got \(String(describing: last))")
    }
    loader.resume()
  }

  @Test func aMemoryHitsEventsAreJustFinished() async throws {
    loader.script(url("m.png"), .respond(body: try png()))
    let manager = manager()
    _ = try await manager.image(for: ImageRequest(url: url("m.png")))
    let task = manager.loadImage(with: ImageRequest(url: url("m.png")), callbackQueue: .immediate) { _ in }
    var events: [ImageTask.Event] = []
    for await event in task.events { events.append(event) }
    #expect(events.count == 1)
    if case .finished(.success(let result))? = events.first {
      #expect(result.cacheType == .memory)
    } else {
      Issue.record("expected only finished, got \(events)")
    }
    #expect(try await task.response.cacheType == .memory)
  }

  @MainActor @Test func theMainQueueCallsBackOnTheMainActor() async throws {
    loader.script(url("q.png"), .respond(body: try png(), chunkSize: 256))
    let done = AsyncCounter()
    let progressSeen = Locked(0)
    let task = manager().loadImage(
      with: ImageRequest(url: url("q.png")), callbackQueue: .main,
      progress: { _ in
        MainActor.assertIsolated()
        progressSeen.withLock { $0 += 1 }
      }
    ) { result in
      MainActor.assertIsolated()
      #expect((try? result.get()) != nil)
      done.increment()
    }
    await done.wait(for: 1)
    #expect(progressSeen.value > 0)
    #expect(try await task.response.cacheType == .none)
  }

  @MainActor @Test func theMainActorLoadCallsItsClosuresOnTheMainActor() async throws {
    loader.script(url("a.png"), .respond(body: try png(), chunkSize: 256))
    let done = AsyncCounter()
    let outcome = Locked<ImageResult?>(nil)
    let progressSeen = Locked(0)
    let manager = manager()
    let task = manager.loadImageOnMainActor(
      with: ImageRequest(url: url("a.png")),
      progress: { _ in
        MainActor.assertIsolated()
        progressSeen.withLock { $0 += 1 }
      }
    ) { result in
      MainActor.assertIsolated()
      outcome.withLock { $0 = try? result.get() }
      done.increment()
    }
    await done.wait(for: 1)
    #expect(progressSeen.value > 0)
    let response = try await task.response
    #expect(outcome.value?.image.pixels == response.image.pixels)
    // A memory hit is delivered on the main actor too.
    manager.loadImageOnMainActor(with: ImageRequest(url: url("a.png"))) { result in
      MainActor.assertIsolated()
      #expect((try? result.get())?.cacheType == .memory)
      done.increment()
    }
    await done.wait(for: 2)
  }

  /// A reader that stops reading no longer asks for partial images: the
  /// task stops wanting them when its last events stream ends, not at its
  /// next event (before, a dropped stream counted until then, and the job
  /// kept decoding previews nobody read).
  @Test func theLastEventsReaderLeavingEndsTheWishForPartialImages() async throws {
    loader.suspend()
    let task = manager().imageTask(with: ImageRequest(url: url("reader.png")))
    await loader.waitForStarts(1)
    #expect(!task.wantsPartialImages)
    let first = task.events
    let second = task.events
    #expect(task.wantsPartialImages)
    let reader = Task { for await _ in first {} }
    reader.cancel()
    await reader.value
    #expect(task.wantsPartialImages)
    _ = consume second
    #expect(!task.wantsPartialImages)
    task.cancel()
  }
}
