import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// ``ImageLoadingOptions/refreshCached``: conditional requests with the ETag
/// stored with each cached image.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerRevalidationTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
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
}
