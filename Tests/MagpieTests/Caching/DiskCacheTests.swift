import Foundation
import Testing

@testable import Magpie

@Suite struct DiskCacheTests {
  private func makeCache(
    _ dir: TemporaryDirectory, clock: ManualClock = ManualClock(), sizeLimit: Int? = nil,
    expiration: CacheExpiration = .days(7)
  ) throws -> DiskCache {
    try DiskCache(
      configuration: .init(
        directory: dir.url.appendingPathComponent("ns/images"), expiration: expiration, sizeLimit: sizeLimit,
        now: clock.date))
  }

  private func mode(_ path: String) -> mode_t {
    var info = stat()
    stat(path, &info)
    return info.st_mode & 0o777
  }

  @Test func storesAndReadsBack() throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir)
    let payload = Data((0..<10_000).map { UInt8($0 % 251) })
    try cache.store(payload, forKey: "https://example.com/a.jpg")
    #expect(try cache.data(forKey: "https://example.com/a.jpg") == payload)
    #expect(try cache.data(forKey: "https://example.com/b.jpg") == nil)
    #expect(cache.contains("https://example.com/a.jpg"))
    #expect(try cache.count() == 1)
    #expect(try cache.totalSize() == DiskCacheEntry.headerSize + payload.count)
    try cache.remove(forKey: "https://example.com/a.jpg")
    #expect(!cache.contains("https://example.com/a.jpg"))
    #expect(try cache.count() == 0)
  }

  @Test func metadataTravelsWithTheEntryAndIsReplacedWithIt() throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir)
    let key = "https://example.com/a.jpg"
    let metadata = Data(#"{"etag":"\"v1\""}"#.utf8)
    try cache.store(Data([1, 2, 3]), forKey: key, metadata: metadata)
    #expect(try cache.data(forKey: key) == Data([1, 2, 3]))
    if dir.supportsUserAttributes {
      #expect(cache.metadata(forKey: key) == metadata)
      // Larger than the first read's buffer.
      let large = Data((0..<3000).map { UInt8($0 % 251) })
      try cache.store(Data([4]), forKey: key, metadata: large)
      #expect(cache.metadata(forKey: key) == large)
    } else {
      #expect(cache.metadata(forKey: key) == nil)
    }
    // New bytes without metadata: the old metadata described other bytes.
    try cache.store(Data([5]), forKey: key)
    #expect(cache.metadata(forKey: key) == nil)
    #expect(cache.metadata(forKey: "https://example.com/missing.jpg") == nil)
    // The metadata is no file of its own.
    #expect(try cache.count() == 1)
  }

  @Test func keyTextNeverReachesTheFileSystemAndModesArePrivate() throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir)
    let hostile = [
      "../../etc/passwd", "/absolute/path", "a/b/c", "key with spaces", "ключ", String(repeating: "x", count: 5000),
    ]
    for key in hostile { try cache.store(Data(key.utf8), forKey: key) }
    let folder = cache.configuration.directory.path
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(names.count == hostile.count)
    for name in names {
      #expect(name.count == 64 && name.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(name)")
      #expect(mode(folder + "/" + name) == 0o600)
      for key in hostile { #expect(!name.contains(key)) }
    }
    #expect(mode(folder) == 0o700)
    #expect(mode(dir.url.appendingPathComponent("ns").path) == 0o700)
    for key in hostile { #expect(try cache.data(forKey: key) == Data(key.utf8)) }
    // Nothing escaped the folder.
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["ns"])
  }

  /// The name comes from the key alone: what is on disk under it (here a
  /// folder, which once made Foundation's inferred URL a folder's) does not
  /// change the URL, and finding the URL reads nothing from the disk.
  @Test func entryURLsAreFilesWhateverTheDiskHolds() throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir)
    let before = cache.fileURL(forKey: "k")
    try FileManager.default.createDirectory(at: before, withIntermediateDirectories: false)
    let after = cache.fileURL(forKey: "k")
    #expect(!before.hasDirectoryPath)
    #expect(!after.hasDirectoryPath)
    #expect(after == before)
  }

  @Test func fileExtensionIsAppended() throws {
    let dir = try TemporaryDirectory()
    let cache = try DiskCache(configuration: .init(directory: dir.url, fileExtension: "png"))
    #expect(cache.fileName(forKey: "k").hasSuffix(".png"))
    #expect(cache.fileName(forKey: "k").count == 68)
  }

  @Test func expiryCountsFromTheLastAccess() throws {
    let dir = try TemporaryDirectory()
    let clock = ManualClock()
    let cache = try makeCache(dir, clock: clock, expiration: .days(7))
    try cache.store(Data([1]), forKey: "read often")
    try cache.store(Data([2]), forKey: "never read")
    clock.advance(by: 5 * 86_400)
    #expect(try cache.data(forKey: "read often") == Data([1]))
    clock.advance(by: 5 * 86_400)
    // Ten days after writing: the file read at day five is fresh, the other expired.
    #expect(cache.contains("read often"))
    #expect(!cache.contains("never read"))
    let result = try cache.clean()
    #expect(result.expiredFiles == 1)
    #expect(try cache.count() == 1)
    #expect(try cache.data(forKey: "read often") == Data([1]))
    clock.advance(by: 8 * 86_400)
    // An expired file found by a read is a miss and is removed.
    #expect(try cache.data(forKey: "read often") == nil)
    #expect(try cache.count() == 0)
  }

  @Test func cleaningTrimsOldestFirstToHalfTheLimit() throws {
    let dir = try TemporaryDirectory()
    let clock = ManualClock()
    let cache = try makeCache(dir, clock: clock, sizeLimit: 10_000)
    for index in 0..<9 {
      try cache.store(Data(count: 1_000), forKey: "k\(index)")
      clock.advance(by: 2 * 3600)
    }
    // Reading k0 makes it the most recent.
    _ = try cache.data(forKey: "k0")
    clock.advance(by: 2 * 3600)
    #expect(try cache.totalSize() == 9 * (DiskCacheEntry.headerSize + 1_000))
    // With their headers the tenth write passes the limit; the store cleans down to 5,000 bytes.
    try cache.store(Data(count: 1_000), forKey: "k9")
    #expect(try cache.totalSize() <= 5_000)
    clock.advance(by: 2 * 3600)
    try cache.store(Data(count: 1_000), forKey: "k10")
    let kept = (0...10).filter { cache.contains("k\($0)") }
    #expect(kept == [0, 7, 8, 9, 10])
  }

  @Test func readsRefreshTheAccessDateOnlyWhenItIsStale() throws {
    let dir = try TemporaryDirectory()
    let clock = ManualClock()
    let cache = try makeCache(dir, clock: clock)
    try cache.store(Data([7]), forKey: "k")
    let path = cache.fileURL(forKey: "k").path
    let written = try #require(FileIO.status(path)?.modified)
    clock.advance(by: 600)
    _ = try cache.data(forKey: "k")
    // Ten minutes later the date stays: no inode write on every hit.
    #expect(FileIO.status(path)?.modified == written)
    clock.advance(by: FileIO.refreshInterval)
    _ = try cache.data(forKey: "k")
    #expect(FileIO.status(path)?.modified == clock.date())
  }

  @Test func cleanRemovesCrashLeftoversButNotWritesInProgress() throws {
    let dir = try TemporaryDirectory()
    let clock = ManualClock()
    let cache = try makeCache(dir, clock: clock)
    let folder = cache.configuration.directory.path
    let stale = folder + "/.tmp-old"
    let dead = folder + "/.tmp-dead"
    let alive = folder + "/.tmp-alive"
    for (path, age) in [(stale, 2.0 * 3600), (dead, 0), (alive, 0)] {
      _ = FileManager.default.createFile(atPath: path, contents: Data(count: 10))
      try FileManager.default.setAttributes(
        [.modificationDate: clock.date().addingTimeInterval(-age)], ofItemAtPath: path)
    }
    // A writer in progress holds its temporary file's lock; a dead one's
    // lock went with it.
    let writer = open(alive, O_WRONLY | O_CLOEXEC)
    defer { close(writer) }
    #expect(flock(writer, LOCK_EX) == 0)
    try cache.clean()
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(!FileManager.default.fileExists(atPath: dead))
    #expect(FileManager.default.fileExists(atPath: alive))
    // Temporary files are never counted as entries.
    #expect(try cache.count() == 0)
  }

  @Test func clearEmptiesTheFolder() throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir)
    for index in 0..<5 { try cache.store(Data([UInt8(index)]), forKey: "\(index)") }
    try cache.clear()
    #expect(try cache.count() == 0)
    #expect(FileManager.default.fileExists(atPath: cache.configuration.directory.path))
  }

  @Test func defaultFolderFollowsXDG() {
    let url = DiskCache.Configuration.defaultDirectory(namespace: "thumbs")
    #expect(url.path.hasSuffix("/magpie/thumbs"))
  }

  @Test func aFileWhereTheFolderShouldBeIsAClearError() throws {
    let dir = try TemporaryDirectory()
    let blocker = dir.path("blocker")
    _ = FileManager.default.createFile(atPath: blocker, contents: Data())
    #expect {
      _ = try DiskCache(configuration: .init(directory: URL(fileURLWithPath: blocker)))
    } throws: { error in
      (error as? MagpieError)?.code == .fileSystem
    }
  }
}
