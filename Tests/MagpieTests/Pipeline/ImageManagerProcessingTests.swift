import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Processed variants: the cached original they are made from, and a
/// processor's failure.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerProcessingTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
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
}
