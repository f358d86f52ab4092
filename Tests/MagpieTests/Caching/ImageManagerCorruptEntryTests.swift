import Foundation
import Testing

@testable import Magpie

/// A damaged disk entry seen through the whole pipeline: the load is a miss,
/// the origin is asked again, and the refetched bytes replace the file.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerCorruptEntryTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @Test func aBitFlippedDiskEntryIsRefetchedFromTheOrigin() async throws {
    let body = try png()
    loader.script(url("flip.png"), .respond(body: body))
    let first = try manager()
    _ = try await first.image(for: ImageRequest(url: url("flip.png")))
    await first.waitForPendingWrites()
    let disk = try #require(first.configuration.cache.diskCache)
    let file = disk.fileURL(forKey: url("flip.png").absoluteString)
    var bytes = try Data(contentsOf: file)
    bytes[bytes.count / 2] ^= 0x04
    try bytes.write(to: file)

    // A new manager (empty memory) over the same folder.
    let second = try manager()
    let loaded = try await second.image(for: ImageRequest(url: url("flip.png")))
    #expect(loaded.cacheType == .none)
    #expect(loaded.image.pixelSize == PixelSize(width: 40, height: 30))
    #expect(loader.startedURLs.count == 2)
    await second.waitForPendingWrites()
    #expect(try DiskCacheEntry.parse(Data(contentsOf: file)) == body)

    let third = try manager()
    #expect(try await third.image(for: ImageRequest(url: url("flip.png"))).cacheType == .disk)
    #expect(loader.startedURLs.count == 2)
  }
}
