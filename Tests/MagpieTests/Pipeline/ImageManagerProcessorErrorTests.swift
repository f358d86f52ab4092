import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What reaches a caller of ``ImageManager`` when a processor throws, and
/// what the failed-source memory makes of it.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerProcessorErrorTests {
  let loader = MockDataLoader()
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
  }

  private func manager(maxPixelCount: Int = 100_000_000) throws -> ImageManager {
    let disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
    let cache = ImageCache(
      memoryCache: .frozen(), diskCache: disk, trimsOnMemoryPressure: false)
    let downloader = ImageDownloader(
      configuration: .init(dataLoader: loader, retryPolicy: .never, rateLimit: nil, sleep: { _ in }))
    return ImageManager(
      configuration: ImageManager.Configuration(
        cache: cache, downloader: downloader, decodeLimits: DecodeOptions(maxPixelCount: maxPixelCount)))
  }

  private func url(_ name: String) -> URL { URL(string: "https://images.example.com/\(name)")! }

  /// The error `request` fails with; records an issue if it succeeds.
  private func failure(of request: ImageRequest, on manager: ImageManager) async -> MagpieError? {
    do throws(MagpieError) {
      let result = try await manager.image(for: request)
      Issue.record("\(request) gave a \(result.image.pixelSize) image")
      return nil
    } catch {
      return error
    }
  }

  @Test func aCorruptImageInsideAProcessorKeepsItsCodeAndNamesTheProcessor() async throws {
    loader.script(url("c.png"), .respond(body: ProcessorErrorTests.corruptPNG()))
    let resize = ImageProcessors.Resizing(size: PixelSize(width: 10, height: 10))
    let error = await failure(of: ImageRequest(url: url("c.png"), processors: [resize]), on: try manager())
    #expect(error?.code == .corruptData)
    #expect(error?.processor == resize.identifier)
  }

  @Test func anImageOverTheLimitInsideAProcessorIsTooLarge() async throws {
    loader.script(url("big.png"), .respond(body: ProcessorErrorTests.png()))
    let downsample = ImageProcessors.Downsampling(size: PixelSize(width: 20, height: 20))
    let request = ImageRequest(url: url("big.png"), processors: [downsample, ImageProcessors.BlackWhite()])
    let error = await failure(of: request, on: try manager(maxPixelCount: 100))
    #expect(error?.code == .imageTooLarge)
    #expect(error?.processor == downsample.identifier)
  }

  @Test func aLaterProcessorsOwnFailureIsProcessingFailedAndNotRemembered() async throws {
    loader.script(url("p.png"), .respond(body: ProcessorErrorTests.png()))
    let manager = try manager()
    let picky = ImageProcessors.Custom(identifier: "picky", pixels: { _ in nil })
    let request = ImageRequest(url: url("p.png"), processors: [ImageProcessors.Flip(.vertical), picky])
    let error = await failure(of: request, on: manager)
    #expect(error?.code == .processingFailed)
    #expect(error?.reason.contains(picky.identifier) == true)
    #expect(error?.processor == picky.identifier)
    #expect(ImageManager.isPermanent(try #require(error)) == false)
    // The source itself is fine: another chain loads it.
    let plain = try await manager.image(for: ImageRequest(url: url("p.png")))
    #expect(plain.image.pixelSize == PixelSize(width: 40, height: 30))
    #expect(loader.startedURLs.count == 2)
  }

  @Test func aCorruptSourceIsRememberedWhateverTheChain() async throws {
    loader.script(url("bad.png"), .respond(body: ProcessorErrorTests.corruptPNG()))
    let manager = try manager()
    let first = ImageRequest(url: url("bad.png"), processors: [ImageProcessors.Blur(radius: 2)])
    let second = ImageRequest(
      url: url("bad.png"),
      processors: [ImageProcessors.Cropping(size: PixelSize(width: 5, height: 5)), ImageProcessors.BlackWhite()])
    let firstError = await failure(of: first, on: manager)
    #expect(firstError?.code == .corruptData)
    let secondError = await failure(of: second, on: manager)
    #expect(secondError?.code == .corruptData)
    #expect(secondError?.reason.contains("failed before") == true)
    #expect(loader.startedURLs.count == 1)
  }
}
