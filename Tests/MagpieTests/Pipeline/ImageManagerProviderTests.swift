import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Data providers as sources, each cached under its own key.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerProviderTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
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
}
