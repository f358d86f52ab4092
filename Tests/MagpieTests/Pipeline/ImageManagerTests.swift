import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(1))) struct ImageManagerTests {
  let loader = MockDataLoader()
  let directory: TemporaryDirectory
  let coder = CountingCoder()
  let registry: CoderRegistry

  init() throws {
    directory = try TemporaryDirectory()
    registry = CoderRegistry(builtIn: [coder])
  }

  private func manager(
    maximumDownloads: Int = 6, writeFailures: WriteFailures? = nil, serializer: (any CacheSerializer)? = nil
  ) throws -> ImageManager {
    let disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
    let cache = ImageCache(
      memoryCache: .frozen(), diskCache: disk,
      serializer: serializer ?? DefaultCacheSerializer(registry: registry), trimsOnMemoryPressure: false)
    let downloader = ImageDownloader(
      configuration: .init(
        dataLoader: loader, maximumConcurrentDownloads: maximumDownloads, retryPolicy: .never, sleep: { _ in }))
    var onWriteFailure: (@Sendable (MagpieError, ImageCacheKey) -> Void)?
    if let writeFailures {
      onWriteFailure = { error, _ in writeFailures.record(error) }
    }
    return ImageManager(
      configuration: ImageManager.Configuration(
        cache: cache, downloader: downloader, registry: registry, cacheWriteFailed: onWriteFailure))
  }

  /// Disk-write failures the manager reported.
  final class WriteFailures: Sendable {
    private let errors = Lock<[MagpieError]>([])
    func record(_ error: MagpieError) { errors.withLock { $0.append(error) } }
    var recorded: [MagpieError] { errors.withLock { $0 } }
  }

  private func url(_ name: String) -> URL { URL(string: "https://images.example.com/\(name)")! }

  /// A PNG whose pixels encode their position.
  private func png(width: Int = 40, height: Int = 30, seed: Int = 0) throws -> Data {
    var bytes = [UInt8]()
    for y in 0..<height {
      for x in 0..<width { bytes += [UInt8((x * 5 + seed) % 256), UInt8((y * 7) % 256), UInt8(seed % 256), 255] }
    }
    return try CoderRegistry.shared.encode(
      Image(pixels: PixelBuffer(width: width, height: height, straightRGBA: bytes)), as: .png)
  }

  @Test func networkThenMemoryThenDisk() async throws {
    let body = try png()
    loader.script(url("a.png"), .respond(body: body))
    let first = try manager()
    let loaded = try await first.image(for: ImageRequest(url: url("a.png")))
    #expect(loaded.cacheType == .none)
    #expect(loaded.image.pixelSize == PixelSize(width: 40, height: 30))
    #expect(loaded.metrics.bytesLoaded == body.count)
    #expect(loaded.metrics.attempts == 1)
    let again = try await first.image(for: ImageRequest(url: url("a.png")))
    #expect(again.cacheType == .memory)
    await first.waitForPendingWrites()

    let second = try manager()
    let fromDisk = try await second.image(for: ImageRequest(url: url("a.png")))
    #expect(fromDisk.cacheType == .disk)
    #expect(fromDisk.metrics.bytesFromCache == body.count)
    #expect(fromDisk.image.pixels == loaded.image.pixels)
    #expect(loader.startedURLs.count == 1)
    // The unprocessed image was stored as the bytes the server sent.
    let stored = try second.configuration.cache.diskCache?.data(forKey: url("a.png").absoluteString)
    #expect(stored == body)
  }

  @Test func concurrentRequestsShareOneDownloadAndOneDecode() async throws {
    loader.script(url("shared.png"), .respond(body: try png()))
    loader.suspend()
    let manager = try manager()
    let results = Locked<[ImageResult]>([])
    let shared = url("shared.png")
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<100 {
        group.addTask {
          if let result = try? await manager.image(for: ImageRequest(url: shared)) {
            results.withLock { $0.append(result) }
          }
        }
      }
      await loader.waitForStarts(1)
      loader.resume()
    }
    #expect(results.withLock { $0.count } == 100)
    #expect(loader.startedURLs.count == 1)
    #expect(coder.decodes == 1)
  }

  @Test func cancellingAllButOneTaskKeepsTheLastAndCancellingAllStopsTheDownload() async throws {
    loader.script(url("c.png"), .respond(body: try png()))
    loader.suspend()
    let manager = try manager()
    let outcomes = Locked<[Int: Result<ImageResult, MagpieError>]>([:])
    let done = AsyncCounter()
    var tasks: [ImageTask] = []
    for index in 0..<100 {
      tasks.append(
        manager.loadImage(with: ImageRequest(url: url("c.png")), callbackQueue: .immediate) { result in
          outcomes.withLock { $0[index] = result }
          done.increment()
        })
    }
    await loader.waitForStarts(1)
    for task in tasks.dropLast() { task.cancel() }
    await done.wait(for: 99)
    loader.resume()
    await done.wait(for: 100)
    let all = outcomes.withLock { $0 }
    #expect(
      (0..<99).allSatisfy { index in
        if case .failure(let error)? = all[index] { return error.code == .cancelled }
        return false
      })
    #expect((try? all[99]?.get())?.image.pixelSize == PixelSize(width: 40, height: 30))

    // Now cancel every task of a second image: the transfer stops.
    loader.suspend()
    let second = (0..<10).map { _ in
      manager.loadImage(with: ImageRequest(url: url("d.png")), callbackQueue: .immediate) { _ in done.increment() }
    }
    await loader.waitForStarts(2)
    for task in second { task.cancel() }
    await done.wait(for: 110)
    #expect(loader.cancelledURLs == [url("d.png").absoluteString])
  }

  @Test func processedVariantsReuseTheCachedOriginal() async throws {
    loader.script(url("p.png"), .respond(body: try png()))
    let manager = try manager()
    let inverted = try await manager.image(
      for: ImageRequest(url: url("p.png"), processors: [InvertProcessor(tag: "a")], options: [.cacheOriginalImage]))
    #expect(inverted.cacheType == .none)
    await manager.waitForPendingWrites()
    manager.configuration.cache.clearMemory()
    // Another chain over the same source: the original comes from disk.
    let other = try await manager.image(for: ImageRequest(url: url("p.png"), processors: [InvertProcessor(tag: "b")]))
    #expect(other.cacheType == .disk)
    #expect(loader.startedURLs.count == 1)
    // Same processing parameters, same pixels; the plain image is the inverse.
    #expect(other.image.pixels == inverted.image.pixels)
    let plain = try await manager.image(for: ImageRequest(url: url("p.png")))
    #expect(plain.image.pixels[0, 0] == SIMD4(255, 255, 255, 255) &- inverted.image.pixels[0, 0] &+ SIMD4(0, 0, 0, 255))
  }

  @Test func aProcessorThatFailsIsATypedError() async throws {
    loader.script(url("f.png"), .respond(body: try png()))
    let manager = try manager()
    await #expect {
      _ = try await manager.image(for: ImageRequest(url: url("f.png"), processors: [FailingProcessor()]))
    } throws: { error in
      (error as? MagpieError)?.code == .processingFailed
        && (error as? MagpieError)?.reason.contains("test.fail") == true
    }
  }

  @Test func fromCacheOnlyNeverTouchesTheNetwork() async throws {
    let manager = try manager()
    await #expect {
      _ = try await manager.image(for: ImageRequest(url: url("absent.png"), options: [.fromCacheOnly]))
    } throws: { error in
      (error as? MagpieError)?.code == .notCached
    }
    #expect(loader.startedURLs.isEmpty)
  }

  @Test func forceRefreshDownloadsAgainAndMemoryOnlySkipsTheDisk() async throws {
    loader.script(url("r.png"), .respond(body: try png()))
    let manager = try manager()
    _ = try await manager.image(for: ImageRequest(url: url("r.png"), options: [.cacheMemoryOnly]))
    let refreshed = try await manager.image(
      for: ImageRequest(url: url("r.png"), options: [.forceRefresh, .cacheMemoryOnly]))
    #expect(refreshed.cacheType == .none)
    #expect(loader.startedURLs.count == 2)
    await manager.waitForPendingWrites()
    #expect(try manager.configuration.cache.diskCache?.count() == 0)
  }

  @Test func aFailedURLIsNotRequestedAgainWithoutRetryFailed() async throws {
    loader.script(url("404.png"), .fail(MagpieError(.httpStatus, "HTTP 404", statusCode: 404)))
    let manager = try manager()
    for _ in 0..<2 {
      await #expect {
        _ = try await manager.image(for: ImageRequest(url: url("404.png")))
      } throws: { error in
        (error as? MagpieError)?.statusCode == 404
      }
    }
    #expect(loader.startedURLs.count == 1)
    loader.script(url("404.png"), .respond(body: try png()))
    let recovered = try await manager.image(for: ImageRequest(url: url("404.png"), options: [.retryFailed]))
    #expect(recovered.cacheType == .none)
    #expect(loader.startedURLs.count == 2)
  }

  @Test func theOldestFailedURLsAreForgottenBeyondTheLimit() async throws {
    let manager = try manager()
    let count = ImageManager.failedSourceCount + 1
    for index in 0..<count {
      loader.script(url("gone-\(index).png"), .fail(MagpieError(.httpStatus, "HTTP 404", statusCode: 404)))
      _ = try? await manager.image(for: ImageRequest(url: url("gone-\(index).png")))
    }
    #expect(loader.startedURLs.count == count)
    // The newest is still remembered; the oldest was forgotten, so it is
    // asked for again.
    _ = try? await manager.image(for: ImageRequest(url: url("gone-\(count - 1).png")))
    #expect(loader.startedURLs.count == count)
    _ = try? await manager.image(for: ImageRequest(url: url("gone-0.png")))
    #expect(loader.startedURLs.count == count + 1)
  }

  @Test func transientFailuresAreNotRemembered() async throws {
    loader.script(
      url("503.png"), .fail(MagpieError(.httpStatus, "HTTP 503", statusCode: 503)), .respond(body: try png()))
    let manager = try manager()
    await #expect(throws: MagpieError.self) { _ = try await manager.image(for: ImageRequest(url: url("503.png"))) }
    _ = try await manager.image(for: ImageRequest(url: url("503.png")))
    #expect(loader.startedURLs.count == 2)
  }

  @Test func refreshCachedKeepsTheImageOn304AndReplacesItWhenTheETagChanges() async throws {
    let first = try png(seed: 1)
    let second = try png(seed: 99)
    loader.script(
      url("e.png"),
      .respond(headers: ["ETag": "\"v1\""], body: first),
      .respond(status: 304, headers: ["ETag": "\"v1\""], body: Data()),
      .respond(headers: ["ETag": "\"v2\""], body: second))
    let manager = try manager()
    let original = try await manager.image(for: ImageRequest(url: url("e.png")))
    await manager.waitForPendingWrites()

    let kept = try await manager.image(for: ImageRequest(url: url("e.png"), options: [.refreshCached]))
    #expect(kept.metrics.revalidated)
    #expect(kept.cacheType == .memory)
    #expect(kept.metrics.bytesLoaded == 0)
    #expect(kept.image.pixels == original.image.pixels)
    #expect(loader.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")

    let replaced = try await manager.image(for: ImageRequest(url: url("e.png"), options: [.refreshCached]))
    #expect(replaced.cacheType == .none)
    #expect(replaced.image.pixels != original.image.pixels)
    #expect(try await manager.image(for: ImageRequest(url: url("e.png"))).image.pixels == replaced.image.pixels)
  }

  @Test func aNewManagerRevalidatesWithTheETagStoredWithTheEntry() async throws {
    let persists = directory.supportsUserAttributes
    loader.script(
      url("v.png"), .respond(headers: ["ETag": "\"v1\""], body: try png(seed: 3)),
      persists ? .respond(status: 304, headers: ["ETag": "\"v1\""], body: Data()) : .respond(body: try png(seed: 3)))
    let first = try manager()
    let original = try await first.image(for: ImageRequest(url: url("v.png")))
    await first.waitForPendingWrites()

    // Another process on the same folder: nothing in memory.
    let second = try manager()
    let result = try await second.image(for: ImageRequest(url: url("v.png"), options: [.refreshCached]))
    #expect(result.image.pixels == original.image.pixels)
    if persists {
      #expect(result.metrics.revalidated)
      #expect(result.cacheType == .disk)
      #expect(loader.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
    } else {
      // Without extended attributes the validators live only in memory.
      #expect(result.cacheType == .none)
    }
  }

  @Test func eachProcessedVariantRevalidatesWithTheETagOfTheResponseItWasMadeFrom() async throws {
    // "a" is made from v1; the image changes; "b" is made from v2.
    loader.script(
      url("m.png"), .respond(headers: ["ETag": "\"v1\""], body: try png(seed: 1)),
      .respond(headers: ["ETag": "\"v2\""], body: try png(seed: 2)),
      .respond(headers: ["ETag": "\"v2\""], body: try png(seed: 2)))
    let manager = try manager()
    let a = try await manager.image(for: ImageRequest(url: url("m.png"), processors: [InvertProcessor(tag: "a")]))
    _ = try await manager.image(for: ImageRequest(url: url("m.png"), processors: [InvertProcessor(tag: "b")]))
    await manager.waitForPendingWrites()

    // Asking about "a" with v2's ETag would earn a 304 and keep v1's pixels.
    let refreshed = try await manager.image(
      for: ImageRequest(url: url("m.png"), processors: [InvertProcessor(tag: "a")], options: [.refreshCached]))
    #expect(loader.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
    #expect(refreshed.cacheType == .none)
    #expect(refreshed.image.pixels != a.image.pixels)
  }

  @Test func progressiveLoadDeliversPartialImagesBeforeTheFinalOne() async throws {
    // A photo-like progressive JPEG, split at each start of scan.
    var bytes = [UInt8]()
    for y in 0..<192 {
      for x in 0..<256 { bytes += [UInt8((x * 3 + y) % 256), UInt8((x ^ y) % 256), UInt8((y * 5) % 256), 255] }
    }
    let photo = Image(pixels: PixelBuffer(width: 256, height: 192, straightRGBA: bytes))
    let jpeg = try CoderRegistry.shared.encode(photo, as: .jpeg, options: EncodeOptions(quality: 90, progressive: true))
    let raw = [UInt8](jpeg)
    var cuts: [Int] = []
    for index in 0..<(raw.count - 1) where raw[index] == 0xFF && raw[index + 1] == 0xDA { cuts.append(index) }
    #expect(cuts.count >= 4)
    var chunks: [Data] = []
    var start = 0
    for cut in cuts.dropFirst() + [raw.count] {
      chunks.append(Data(raw[start..<cut]))
      start = cut
    }
    loader.script(url("progressive.jpg"), .respondInChunks(chunks: chunks))
    loader.paceChunks()
    let manager = try manager()
    let partials = AsyncCounter()
    let order = Locked<[String]>([])
    let progressiveURL = url("progressive.jpg")
    let task = Task {
      try await manager.image(
        for: ImageRequest(url: progressiveURL, options: [.progressiveLoad]),
        partialImage: { image in
          order.withLock { $0.append(image.isPartial ? "partial" : "whole") }
          partials.increment()
        })
    }
    // Chunk 1 holds the first scan's start only; each later chunk completes
    // one more scan, and the next is let through once its preview arrived.
    loader.allowChunks(2)
    await partials.wait(for: 1)
    loader.allowChunks(1)
    await partials.wait(for: 2)
    loader.allowChunks(chunks.count)
    let result = try await task.value
    #expect(!result.image.isPartial)
    #expect(order.value.count >= 2)
    #expect(order.value.allSatisfy { $0 == "partial" })
  }

  @Test func providersAreSourcesWithTheirOwnKeys() async throws {
    let body = try png(width: 8, height: 6)
    let manager = try manager()
    let raw = try await manager.image(for: ImageRequest(provider: RawDataProvider(data: body, cacheKey: "raw:1")))
    #expect(raw.image.pixelSize == PixelSize(width: 8, height: 6))
    let base64 = try await manager.image(
      for: ImageRequest(provider: Base64DataProvider(base64String: body.base64EncodedString(), cacheKey: "b64:1")))
    #expect(base64.image.pixels == raw.image.pixels)
    let file = directory.url.appendingPathComponent("icon@2x.png")
    try body.write(to: file)
    let fromFile = try await manager.image(for: ImageRequest(provider: FileDataProvider(fileURL: file)))
    #expect(fromFile.image.scale == 2)
    #expect(
      try await manager.image(for: ImageRequest(provider: RawDataProvider(data: body, cacheKey: "raw:1"))).cacheType
        == .memory)
    await #expect(throws: MagpieError.self) {
      _ = try await manager.image(for: ImageRequest(provider: Base64DataProvider(base64String: "%%%", cacheKey: "bad")))
    }
    #expect(loader.startedURLs.isEmpty)
  }

  @Test func aDiskWriteFailureIsReportedAndTheLoadStillSucceeds() async throws {
    loader.script(url("w.png"), .respond(body: try png()))
    let failures = WriteFailures()
    let manager = try manager(writeFailures: failures, serializer: RefusingSerializer())
    let result = try await manager.image(
      for: ImageRequest(url: url("w.png"), processors: [InvertProcessor()], options: [.cacheOriginalImage]))
    #expect(result.cacheType == .none)
    await manager.waitForPendingWrites()
    #expect(failures.recorded.map(\.code) == [.encodingFailed])
    // The original bytes are stored even though the processed image was not.
    #expect(try manager.configuration.cache.diskCache?.data(forKey: url("w.png").absoluteString) == result.data)
    #expect(
      try await manager.image(for: ImageRequest(url: url("w.png"), processors: [InvertProcessor()])).cacheType
        == .memory)
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
    while manager.configuration.downloader.waitingRequests.count < 2 { await Task.yield() }
    late.priority = .veryHigh
    #expect(
      manager.configuration.downloader.waitingRequests.map(\.url!.lastPathComponent) == ["late.png", "early.png"])
    loader.resume()
    await done.wait(for: 3)
    #expect(loader.startedURLs.map { URL(string: $0)!.lastPathComponent } == ["busy.png", "late.png", "early.png"])
  }

  @Test func aMemoryHitCompletesBeforeLoadImageReturnsWhenImmediate() async throws {
    loader.script(url("m.png"), .respond(body: try png()))
    let manager = try manager()
    _ = try await manager.image(for: ImageRequest(url: url("m.png")))
    let delivered = Locked<CacheType?>(nil)
    let task = manager.loadImage(with: ImageRequest(url: url("m.png")), callbackQueue: .immediate) { result in
      delivered.withLock { $0 = try? result.get().cacheType }
    }
    #expect(delivered.withLock { $0 } == .memory)
    #expect(!task.isCancelled)
  }
}

/// A serializer that cannot store anything: every disk write fails.
struct RefusingSerializer: CacheSerializer {
  func data(with image: Image, original: Data?) -> Data? { nil }
  func image(with data: Data, options: DecodeOptions) -> Image? { nil }
}
