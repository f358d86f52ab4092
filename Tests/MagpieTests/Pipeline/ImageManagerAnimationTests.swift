import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Loading animations for playback: the poster and a frame source instead
/// of every frame, processors on each frame as it is decoded, the memory
/// cache charged by the buffer, disk hits on demand too, and no decoding
/// once the player and the load are gone.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerAnimationTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts
  let frames = CountingFrameCoder()
  let gif: Data

  init() throws {
    parts = try ImageManagerFixtureParts()
    parts.registry.register(frames)
    gif = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/pan-00.gif"))
  }

  private var processors: [any ImageProcessor] {
    [ImageProcessors.Downsampling(size: PixelSize(width: 64, height: 64)), ImageProcessors.Flip(.horizontal)]
  }

  /// Every frame of `animation`, decoded in order.
  private func allFrames(_ animation: AnimatedImage) throws -> [PixelBuffer] {
    var reader = try animation.sequentialFrames()
    var frames: [PixelBuffer] = []
    while let frame = try reader.next() { frames.append(frame.pixels) }
    return frames
  }

  @Test func anOnDemandLoadDecodesThePosterOnlyAndProcessesEachFrameAsTheEagerLoadDoes() async throws {
    loader.script(url("a.gif"), .respond(body: gif), .respond(body: gif))
    let manager = try manager()
    let request = ImageRequest(
      url: url("a.gif"), processors: processors, options: [.decodeFramesOnDemand, .cacheMemoryOnly])
    let lazy = try await manager.image(for: request).image
    let animation = try #require(lazy.animation)
    #expect(frames.frameDecodes == 1)
    #expect(lazy.frames.count == 1 && lazy.isAnimated)
    let eager = try await manager.image(for: ImageRequest(url: url("a.gif"), processors: processors)).image
    #expect(eager.frames.count == 8 && eager.animation == nil)
    #expect(animation.timeline == AnimationTimeline(eager))
    #expect(lazy.pixels == eager.pixels)
    #expect(try allFrames(animation) == eager.frames.map(\.pixels))
    #expect(request.processingIdentifier.contains("framesOnDemand"))
  }

  @Test func theMemoryCacheChargesTheBufferAndTheBytesNotEveryFrame() async throws {
    loader.script(url("b.gif"), .respond(body: gif))
    let manager = try manager()
    let frameBytes = 200 * 150 * 4
    var request = ImageRequest(url: url("b.gif"), options: [.decodeFramesOnDemand])
    request.options.insert(.cacheMemoryOnly)
    let image = try await manager.image(for: request).image
    let animation = try #require(image.animation)
    #expect(animation.retainedByteCount == gif.count + 8 * frameBytes)
    #expect(manager.configuration.cache.memoryCache.totalCost == image.byteCount)

    // With a budget of two frames, the charge is two frames and the poster.
    var options = DecodeOptions()
    options.decodesFramesOnDemand = true
    options.frameBufferBudget = 2 * frameBytes
    let small = try CoderRegistry.shared.decode(gif, options: options)
    #expect(small.byteCount == gif.count + 3 * frameBytes)
    #expect(small.byteCount < (try CoderRegistry.shared.decode(gif)).byteCount)
  }

  @Test func aDiskHitLoadsOnDemandFromTheStoredBytes() async throws {
    loader.script(url("c.gif"), .respond(body: gif))
    let request = ImageRequest(url: url("c.gif"), options: [.decodeFramesOnDemand])
    let first = try manager()
    _ = try await first.image(for: request)
    await first.waitForPendingWrites()
    let second = try manager()
    let hit = try await second.image(for: request)
    #expect(hit.cacheType == .disk)
    let animation = try #require(hit.image.animation)
    #expect(animation.data == gif)
    #expect(try allFrames(animation) == (try CoderRegistry.shared.decode(gif)).frames.map(\.pixels))
    #expect(loader.startedURLs.count == 1)
  }

  @Test func aProcessedAnimationIsStoredAsItsOriginalAndProcessedPerFrameAgain() async throws {
    loader.script(url("p.gif"), .respond(body: gif))
    let request = ImageRequest(url: url("p.gif"), processors: processors, options: [.decodeFramesOnDemand])
    let first = try manager()
    let loaded = try await first.image(for: request).image
    await first.waitForPendingWrites()
    // Nothing was decoded for the store: no frame but the poster.
    #expect(frames.frameDecodes == 1)
    let disk = first.configuration.cache.diskCache
    #expect(try disk?.data(forKey: request.cacheKey(defaultFilter: .absoluteString).stringValue) == nil)
    #expect(try disk?.data(forKey: url("p.gif").absoluteString) == gif)
    let again = try await manager().image(for: request)
    #expect(again.cacheType == .disk)
    let animation = try #require(again.image.animation)
    #expect(try allFrames(animation) == (try allFrames(#require(loaded.animation))))
    #expect(loader.startedURLs.count == 1)
  }

  @Test func droppingThePlayerAndCancellingTheLoadStopAllDecoding() async throws {
    loader.script(url("d.gif"), .respond(body: gif))
    let manager = try manager()
    let done = AsyncCounter()
    let outcome = Locked<Result<ImageResult, MagpieError>?>(nil)
    let task = manager.loadImage(
      with: ImageRequest(url: url("d.gif"), options: [.decodeFramesOnDemand, .cacheMemoryOnly]),
      callbackQueue: .immediate
    ) { result in
      outcome.withLock { $0 = result }
      done.increment()
    }
    await done.wait(for: 1)
    let result = try #require(outcome.value)
    let animation = try #require(try result.get().image.animation)
    // The poster's source goes to the first buffer; hold its third decode
    // (frame 2, decoded ahead) while the player and the load go away.
    frames.hold(atDecode: 3)
    var player: AnimationPlayer? = try animation.makePlayer(clock: ManualFrameClock(), target: RecordingTarget())
    player?.start()
    await frames.decodesStarted.wait(for: 3)
    player = nil
    task.cancel()
    manager.configuration.cache.memoryCache.removeAll()
    outcome.withLock { $0 = nil }
    frames.release()
    // The buffer, and with it the only source, is freed: nothing is left
    // that could decode a frame.
    await frames.sourcesGone.wait(for: 1)
    #expect(frames.sourcesMade == 1)
    #expect(frames.frameDecodes == 3)
  }

  @Test func cancellingAnOnDemandLoadBeforeItsBytesArriveDecodesNoFrame() async throws {
    loader.script(url("e.gif"), .respond(body: gif))
    loader.suspend()
    let manager = try manager()
    let done = AsyncCounter()
    let outcome = Locked<Result<ImageResult, MagpieError>?>(nil)
    let task = manager.loadImage(
      with: ImageRequest(url: url("e.gif"), options: [.decodeFramesOnDemand]), callbackQueue: .immediate
    ) { result in
      outcome.withLock { $0 = result }
      done.increment()
    }
    await loader.waitForStarts(1)
    task.cancel()
    await done.wait(for: 1)
    loader.resume()
    #expect(throws: MagpieError.self) { try outcome.value?.get() }
    await loader.waitForCancels(1)
    #expect(frames.sourcesMade == 0 && frames.frameDecodes == 0)
  }
}
