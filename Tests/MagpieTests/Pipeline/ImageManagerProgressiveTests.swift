import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// ``ImageLoadingOptions/progressiveLoad``: previews while the bytes arrive.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerProgressiveTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @Test func progressiveLoadDeliversPartialImagesBeforeTheFinalOne() async throws {
    let chunks = try ScanChunkedJPEG.progressiveChunks()
    #expect(chunks.count >= 4)
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
}
