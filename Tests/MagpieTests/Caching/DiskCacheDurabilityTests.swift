import Foundation
import Testing

@testable import Magpie

/// The two durability modes: each stores whole, atomic entries; `flush()`
/// writes back what deferred writes left to the kernel; and what a power
/// loss can leave of a deferred write under a real name is a miss, never
/// wrong bytes. (Killed writers, in either mode: `DiskCacheProcessTests`,
/// whose probe uses the default.)
@Suite struct DiskCacheDurabilityTests {
  private let payload = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

  private func makeCache(_ dir: TemporaryDirectory, _ durability: DiskCacheDurability? = nil) throws -> DiskCache {
    let folder = dir.url.appendingPathComponent("cache")
    guard let durability else { return try DiskCache(configuration: .init(directory: folder)) }
    return try DiskCache(configuration: .init(directory: folder, durability: durability))
  }

  @Test func theDefaultDefersTheFlush() throws {
    let dir = try TemporaryDirectory()
    #expect(try makeCache(dir).configuration.durability == .deferred)
  }

  @Test(arguments: [DiskCacheDurability.eachEntry, .deferred])
  func eitherModeStoresWholeEntriesAndLeavesNoTemporaryFile(_ durability: DiskCacheDurability) throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir, durability)
    for index in 0..<8 { try cache.store(payload + Data([UInt8(index)]), forKey: "k\(index)") }
    try cache.store(payload, forKey: "k3", metadata: Data("etag".utf8))
    for index in 0..<8 {
      #expect(try cache.data(forKey: "k\(index)") == (index == 3 ? payload : payload + Data([UInt8(index)])))
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: cache.configuration.directory.path)
    #expect(names.count == 8)
    #expect(!names.contains { $0.hasPrefix(DiskCache.temporaryPrefix) })
  }

  @Test func flushWritesBackAndKeepsEveryEntry() throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir, .deferred)
    for index in 0..<16 { try cache.store(payload, forKey: "k\(index)") }
    try cache.flush()
    for index in 0..<16 { #expect(try cache.data(forKey: "k\(index)") == payload) }
    #expect(cache.corruptEntriesDiscarded == 0)
  }

  @Test func flushingAVanishedFolderIsAnErrorNamingIt() throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir)
    try FileManager.default.removeItem(at: cache.configuration.directory)
    #expect {
      try cache.flush()
    } throws: { error in
      guard let error = error as? MagpieError else { return false }
      return error.code == .fileSystem && error.reason.contains(cache.configuration.directory.path)
    }
  }

  /// A power loss before writeback can leave a deferred entry's name with
  /// no bytes, a prefix, or its full length of zeros (the size reached the
  /// journal, the data never did).
  @Test(arguments: ["empty", "prefix", "zeros"])
  func whatAPowerLossLeavesUnderARealNameIsAMissAndGoes(_ shape: String) throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir, .deferred)
    try cache.store(payload, forKey: "k")
    let url = cache.fileURL(forKey: "k")
    let length = try Data(contentsOf: url).count
    let left: Data
    switch shape {
    case "empty": left = Data()
    case "prefix": left = try Data(contentsOf: url).prefix(4_096)
    default: left = Data(count: length)
    }
    try left.write(to: url)
    #expect(try cache.data(forKey: "k") == nil)
    #expect(!FileManager.default.fileExists(atPath: url.path))
    #expect(cache.corruptEntriesDiscarded == 1)
    try cache.store(payload, forKey: "k")
    #expect(try cache.data(forKey: "k") == payload)
  }
}
