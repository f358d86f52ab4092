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
}
