import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct ValidatorStoreTests {
  private func validators(_ etag: String) throws -> ValidatorStore.Validators {
    let response = try #require(
      HTTPURLResponse(
        url: URL(string: "https://example.com/")!, statusCode: 200, httpVersion: "HTTP/1.1",
        headerFields: ["ETag": etag]))
    return try #require(ValidatorStore.Validators(response))
  }

  /// Validators made by JSONEncoder from awkward header text survive the
  /// hand-written encoding, read back by JSONDecoder.
  @Test(arguments: [
    ["etag": "W/\"6b12-39a0a\"", "lastModified": "Fri, 04 Dec 2026 05:15:00 GMT"],
    ["etag": "back\\slash \"quote\" tab\t nul\u{0} esc\u{1B} del\u{7F}"],
    ["lastModified": "caf\u{E9} \u{1F600} line\nbreak /slash"],
    ["etag": ""],
  ])
  func metadataEncodingRoundTrips(_ fields: [String: String]) throws {
    let reference = try #require(ValidatorStore.Validators(encoded: try JSONEncoder().encode(fields)))
    #expect(reference.etag == fields["etag"])
    #expect(reference.lastModified == fields["lastModified"])
    let encoded = try #require(reference.encoded)
    #expect(ValidatorStore.Validators(encoded: encoded) == reference)
    let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: String])
    #expect(object == fields)
  }

  @Test func memoryKeepsOnlyTheMostRecentEntriesAndTheDiskTheRest() async throws {
    let dir = try TemporaryDirectory()
    let cache = ImageCache(
      diskCache: try DiskCache(configuration: .init(directory: dir.url.appendingPathComponent("cache"))),
      trimsOnMemoryPressure: false)
    let store = ValidatorStore(cache: cache)
    let onDisk = ImageCacheKey(source: "https://example.com/on-disk.png")
    let inMemoryOnly = ImageCacheKey(source: "https://example.com/memory-only.png")
    let stored = try validators("\"disk\"")
    try await cache.store(
      Image(pixels: PixelBuffer(width: 2, height: 2)), forKey: onDisk, in: .disk, metadata: stored.encoded)
    store.setValidators(stored, for: onDisk)
    store.setValidators(try validators("\"memory\""), for: inMemoryOnly)
    #expect(await store.validators(for: inMemoryOnly)?.etag == "\"memory\"")

    // A long-running process loads many more images than it remembers.
    for index in 0..<ValidatorStore.memoryCount {
      store.setValidators(try validators("\"\(index)\""), for: ImageCacheKey(source: "https://example.com/\(index)"))
    }
    #expect(await store.validators(for: ImageCacheKey(source: "https://example.com/0"))?.etag == "\"0\"")
    #expect(await store.validators(for: inMemoryOnly) == nil)
    #expect(await store.validators(for: onDisk)?.etag == (dir.supportsUserAttributes ? "\"disk\"" : nil))
  }
}
