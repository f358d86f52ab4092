import Foundation
import Testing

@testable import Magpie

/// Damaged, truncated, old-format and oversized files under real entry
/// names: each is a miss, and is deleted, so the next load fetches again.
@Suite struct DiskCacheIntegrityTests {
  private func makeCache(_ dir: TemporaryDirectory, maximumEntrySize: Int = DiskCache.defaultMaximumEntrySize) throws
    -> DiskCache
  {
    try DiskCache(
      configuration: .init(directory: dir.url.appendingPathComponent("cache"), maximumEntrySize: maximumEntrySize))
  }

  private let payload = Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 37) })

  /// Stores `payload` under `key`, rewrites its file with `damage`, and
  /// checks that a read is a miss that removes the file.
  private func expectMissAndRemoval(
    _ damage: (inout Data) -> Void, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir)
    try cache.store(payload, forKey: "k")
    let url = cache.fileURL(forKey: "k")
    var bytes = try Data(contentsOf: url)
    damage(&bytes)
    try bytes.write(to: url)
    #expect(cache.contains("k"), sourceLocation: sourceLocation)
    #expect(try cache.data(forKey: "k") == nil, sourceLocation: sourceLocation)
    #expect(!FileManager.default.fileExists(atPath: url.path), sourceLocation: sourceLocation)
    #expect(cache.corruptEntriesDiscarded == 1, sourceLocation: sourceLocation)
    // The key works again.
    try cache.store(payload, forKey: "k")
    #expect(try cache.data(forKey: "k") == payload, sourceLocation: sourceLocation)
  }

  @Test func aFlippedBitInThePayloadIsAMissAndTheFileGoes() throws {
    try expectMissAndRemoval { $0[DiskCacheEntry.headerSize + 1_000] ^= 0x10 }
  }

  @Test func aFlippedBitInTheHeaderIsAMissAndTheFileGoes() throws {
    try expectMissAndRemoval { $0[9] ^= 0x01 }
  }

  @Test func aTruncatedFileIsAMissAndTheFileGoes() throws {
    try expectMissAndRemoval { $0 = $0.prefix($0.count - 1) }
    try expectMissAndRemoval { $0 = $0.prefix(7) }
    try expectMissAndRemoval { $0 = Data() }
  }

  @Test func anOldFormatFileWithoutAHeaderIsAMissAndTheFileGoes() throws {
    try expectMissAndRemoval { $0 = $0.dropFirst(DiskCacheEntry.headerSize) }
  }

  @Test func storingOverTheEntryLimitIsAnErrorNamingLimitAndSize() throws {
    let dir = try TemporaryDirectory()
    #expect(DiskCache.defaultMaximumEntrySize == 64 << 20)
    let cache = try makeCache(dir, maximumEntrySize: 4_095)
    do {
      try cache.store(payload, forKey: "k")
      Issue.record("a 4,096-byte entry passed a 4,095-byte limit")
    } catch {
      #expect(error.code == .invalidArgument)
      #expect(error.reason.contains("maximumEntrySize (4095 bytes)"), "\(error)")
      #expect(error.reason.contains("4096 bytes"), "\(error)")
    }
    #expect(try cache.count() == 0)
    try cache.store(payload.prefix(4_095), forKey: "k")
    #expect(try cache.data(forKey: "k") == payload.prefix(4_095))
  }

  @Test func aFileOverTheEntryLimitIsAMissAndTheFileGoes() throws {
    let dir = try TemporaryDirectory()
    try makeCache(dir).store(payload, forKey: "k")
    let smaller = try makeCache(dir, maximumEntrySize: 1_024)
    #expect(try smaller.data(forKey: "k") == nil)
    #expect(smaller.corruptEntriesDiscarded == 1)
    #expect(!FileManager.default.fileExists(atPath: smaller.fileURL(forKey: "k").path))
  }

  @Test func aHugeSparseFileIsRefusedWithoutReadingIt() throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir)
    let path = cache.fileURL(forKey: "huge").path
    // 16 GiB that take no disk: reading it would need 16 GiB of memory.
    var header = DiskCacheEntry.header(for: Data())
    let declared = UInt64(16) << 30
    withUnsafeBytes(of: declared.littleEndian) { header.replaceSubrange(8..<16, with: $0) }
    #expect(FileManager.default.createFile(atPath: path, contents: Data(header)))
    #expect(truncate(path, off_t(DiskCacheEntry.headerSize) + off_t(declared)) == 0)
    #expect(try cache.data(forKey: "huge") == nil)
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
