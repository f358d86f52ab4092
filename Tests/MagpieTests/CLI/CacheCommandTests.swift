import Foundation
import Testing

@testable import Magpie

/// `magpie cache info|clean|clear` as CONTRACT.md describes it.
@Suite struct CacheCommandTests {
  private func record(_ result: CLIRunner.Result) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  @Test func infoCleanAndClearReportCountBytesAndPath() async throws {
    let dir = try TemporaryDirectory()
    let folder = dir.path("cache")
    let now = Date()
    let cache = try DiskCache(configuration: .init(directory: URL(fileURLWithPath: folder)))
    for index in 0..<6 { try cache.store(Data(count: 1_000), forKey: "key-\(index)") }
    // Two files unused for ten days: expired under the 7-day default.
    for index in 0..<2 {
      try FileManager.default.setAttributes(
        [.modificationDate: now.addingTimeInterval(-10 * 86_400)],
        ofItemAtPath: cache.fileURL(forKey: "key-\(index)").path)
    }

    let info = try await CLIRunner.run(["cache", "info", "--cache-dir", folder])
    #expect(info.status == 0, "\(info.stderr)")
    let infoRecord = try record(info)
    #expect(infoRecord["count"] as? Int == 6)
    #expect(infoRecord["bytes"] as? Int == 6 * (DiskCacheEntry.headerSize + 1_000))
    #expect(infoRecord["path"] as? String == folder)
    let keys = ["\"count\"", "\"bytes\"", "\"path\""].compactMap { info.stdout.range(of: $0)?.lowerBound }
    #expect(keys.count == 3 && keys == keys.sorted())

    let clean = try await CLIRunner.run(["cache", "clean", "--cache-dir", folder])
    #expect(clean.status == 0)
    #expect(try record(clean)["count"] as? Int == 4)

    // With a 3,000-byte limit, clean trims the rest to half of it.
    let trimmed = try await CLIRunner.run(["cache", "clean", "--cache-dir", folder, "--size-limit", "3000"])
    #expect(try record(trimmed)["bytes"] as? Int ?? .max <= 1_500)

    let clear = try await CLIRunner.run(["cache", "clear", "--cache-dir", folder])
    #expect(try record(clear)["count"] as? Int == 0)
    #expect(try record(clear)["bytes"] as? Int == 0)
  }

  @Test func badUsageExitsWithTwo() async throws {
    #expect(try await CLIRunner.run(["cache"]).status == 2)
    #expect(try await CLIRunner.run(["cache", "wipe"]).status == 2)
    #expect(try await CLIRunner.run(["cache", "clean", "--size-limit", "lots"]).status == 2)
  }

  @Test func anUnusableFolderFailsWithOne() async throws {
    let dir = try TemporaryDirectory()
    let blocker = dir.path("file")
    #expect(FileManager.default.createFile(atPath: blocker, contents: Data()))
    let result = try await CLIRunner.run(["cache", "info", "--cache-dir", blocker])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("magpie: error: cache info: "))
  }
}
