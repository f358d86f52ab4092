import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `magpie cache clear` forgets validators too: after it, a revalidating
/// load over the same folder sends no `If-None-Match`.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct CacheClearValidatorTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @Test func clearRemovesEntriesValidatorsAndLeftovers() async throws {
    loader.script(url("v.png"), .respond(headers: ["ETag": "\"v1\""], body: try png()))
    let first = try manager()
    _ = try await first.image(for: ImageRequest(url: url("v.png")))
    await first.waitForPendingWrites()
    let folder = directory.url.appendingPathComponent("cache").path
    let disk = try #require(first.configuration.cache.diskCache)
    let key = url("v.png").absoluteString
    if directory.supportsUserAttributes {
      #expect(disk.metadata(forKey: key) != nil)
    }
    // A dead writer's leftover.
    #expect(FileManager.default.createFile(atPath: folder + "/.tmp-dead", contents: Data(count: 10)))

    let clear = try await CLIRunner.run(["cache", "clear", "--cache-dir", folder])
    #expect(clear.status == 0, "\(clear.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    #expect(disk.metadata(forKey: key) == nil)

    let second = try manager()
    let refreshed = try await second.image(for: ImageRequest(url: url("v.png"), options: [.refreshCached]))
    #expect(refreshed.cacheType == .none)
    #expect(loader.requests.count == 2)
    #expect(loader.requests.last?.value(forHTTPHeaderField: "If-None-Match") == nil)
    #expect(loader.requests.last?.value(forHTTPHeaderField: "If-Modified-Since") == nil)
  }
}
