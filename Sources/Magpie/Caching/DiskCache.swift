import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Bytes on disk, one file per key, in one folder per namespace.
///
/// - File names are the hex SHA-256 of the key (plus an optional
///   extension): no key text reaches the file system, so no key can name a
///   path outside the folder.
/// - Each file is a `DiskCacheEntry`: a header with the payload's length
///   and a CRC-32, so a bit-flipped, truncated or old-format file is
///   detected on read, deleted, and reported as a miss (the pipeline then
///   fetches again).
/// - Writes go to a temporary file in the same folder and are renamed into
///   place: a killed process, a full disk or a second process writing the
///   same key never leaves a half file under a real name. Whether each is
///   flushed to the disk first is ``Configuration/durability``; ``flush()``
///   makes all of them durable at once.
/// - A file's modification time is its last access; reads refresh it (when
///   it is more than an hour old, so hits rarely write an inode), and
///   ``clean()`` removes files unused for longer than the expiration, then
///   the least recently used until the folder is under half the size limit.
///
/// Every method here does blocking file I/O: call them off threads that must
/// stay responsive, or use ``perform(_:)``, which runs work on the cache's own
/// I/O queue.
public final class DiskCache: Sendable {
  /// What ``clean()`` removed.
  public struct CleanResult: Sendable, Equatable {
    /// Files removed because they expired.
    public var expiredFiles: Int
    /// Files removed to get under the size limit.
    public var evictedFiles: Int
    /// Bytes freed in all.
    public var freedBytes: Int
  }

  /// The configuration this cache was opened with.
  public let configuration: Configuration
  let queue = DispatchQueue(label: "magpie.disk-cache", qos: .userInitiated, attributes: .concurrent)
  /// Stores and removals without a flush, one at a time: the kernel takes
  /// the folder's lock for each create, rename and unlink anyway, and a
  /// second writer waiting for it spins on a core that could be decoding.
  let writeQueue: DispatchQueue = {
    let queue = DispatchQueue(label: "magpie.disk-cache.writes", qos: .userInitiated)
    queue.setSpecific(key: DiskCache.onWriteQueue, value: true)
    return queue
  }()
  /// Set on the serial write queue, so a test can tell where a write ran.
  static let onWriteQueue = DispatchSpecificKey<Bool>()
  /// Bytes this process believes the folder holds; `nil` until first counted.
  /// Other processes writing the same folder make it drift, which ``clean()``
  /// corrects by counting again.
  private let estimatedSize = Lock<Int?>(nil)
  private let discarded = Atomic<Int>(0)

  /// How many invalid files (damaged, truncated, old format, oversized)
  /// ``data(forKey:)`` has found and deleted since this cache was opened.
  public var corruptEntriesDiscarded: Int { discarded.load(ordering: .relaxed) }

  /// ``Configuration/maximumEntrySize`` unless set: 64 MiB.
  public static let defaultMaximumEntrySize = 64 << 20

  /// Temporary files older than this are leftovers of a crashed writer,
  /// locked or not (``clean()`` removes unlocked ones at once).
  static let staleTemporaryAge: TimeInterval = 3600
  static let temporaryPrefix = ".tmp-"

  /// Opens (creating with mode 0700 if needed) the cache folder.
  public init(configuration: Configuration) throws(MagpieError) {
    self.configuration = configuration
    try FileIO.createPrivateDirectory(configuration.directory.path)
  }

  /// Opens the default folder for `namespace`.
  public convenience init(namespace: String = "default") throws(MagpieError) {
    try self.init(configuration: Configuration(directory: Configuration.defaultDirectory(namespace: namespace)))
  }

  /// The file that holds `key`'s bytes (whether or not it exists).
  public func fileURL(forKey key: String) -> URL {
    // Saying it is a file spares Foundation a `stat` to find out, which
    // waits for the folder lock while another writer creates a file.
    configuration.directory.appendingPathComponent(fileName(forKey: key), isDirectory: false)
  }

  /// The file name for `key`: 64 hex digits of SHA-256, and the extension.
  public func fileName(forKey key: String) -> String {
    let digest = SHA256.hexDigest(of: key.utf8)
    guard let ext = configuration.fileExtension, !ext.isEmpty else { return digest }
    return digest + "." + ext
  }

  /// `key`'s bytes, or `nil` when there is no live, valid file for it.
  /// Refreshes the file's access date; removes it if it had expired or is
  /// not a valid entry (damaged, truncated, old format, over
  /// ``Configuration/maximumEntrySize``).
  public func data(forKey key: String) throws(MagpieError) -> Data? {
    let path = fileURL(forKey: key).path
    let now = configuration.now()
    let read = try FileIO.readEntry(path, touchingAt: now, maximumPayload: configuration.maximumEntrySize)
    switch read {
    case nil:
      return nil
    case .corrupt(_, let identity)?:
      FileIO.removeFile(path, ifStill: identity)
      discarded.add(1, ordering: .relaxed)
      estimatedSize.withLock { $0 = nil }
      return nil
    case .entry(let data, let modified)?:
      if now.timeIntervalSince(modified) > configuration.expiration.interval {
        try? FileIO.removeFile(path)
        return nil
      }
      return data
    }
  }

  /// Whether a live (unexpired) file exists for `key`; does not refresh it
  /// or check its contents (``data(forKey:)`` does).
  public func contains(_ key: String) -> Bool {
    guard let info = FileIO.status(fileURL(forKey: key).path) else { return false }
    return configuration.now().timeIntervalSince(info.modified) <= configuration.expiration.interval
  }

  /// Stores `data` under `key`, atomically. When the folder grows past the
  /// size limit, cleans it.
  ///
  /// `metadata` (small: a few hundred bytes, such as the response headers
  /// needed to revalidate) travels with the file as a user extended
  /// attribute, written in the same atomic step, so it can never describe
  /// other bytes than the file's; see ``metadata(forKey:)``. Where the file
  /// system takes no user extended attributes (tmpfs before Linux 6.6, some
  /// network file systems) the bytes are stored without it.
  ///
  /// Throws, storing nothing, when `data` is larger than
  /// ``Configuration/maximumEntrySize``.
  public func store(_ data: Data, forKey key: String, metadata: Data? = nil) throws(MagpieError) {
    guard data.count <= configuration.maximumEntrySize else {
      throw MagpieError(
        .invalidArgument,
        "disk-cache entry of \(data.count) bytes exceeds maximumEntrySize (\(configuration.maximumEntrySize) bytes)")
    }
    let path = fileURL(forKey: key).path
    let previous = configuration.sizeLimit == nil ? 0 : FileIO.status(path)?.size ?? 0
    let header = DiskCacheEntry.header(for: data)
    try FileIO.writeAtomically(
      data, header: header, to: path, modifiedAt: configuration.now(), metadata: metadata,
      flush: configuration.durability == .eachEntry)
    guard let limit = configuration.sizeLimit else { return }
    let size = try currentSize(adding: header.count + data.count - previous)
    if size > limit { _ = try clean() }
  }

  /// Makes every entry stored so far durable, whatever the durability: one
  /// `syncfs` of the file system holding the folder, which waits until the
  /// kernel has written back all it holds for that file system. Blocking.
  public func flush() throws(MagpieError) {
    try FileIO.syncFileSystem(holding: configuration.directory.path)
  }

  /// The metadata stored with `key`'s file by ``store(_:forKey:metadata:)``,
  /// or `nil` when there is none (no file, stored without metadata, or a
  /// file system without user extended attributes). Does not refresh the
  /// file's access date.
  public func metadata(forKey key: String) -> Data? {
    FileIO.metadata(atPath: fileURL(forKey: key).path)
  }

  /// Removes `key`'s file, if any.
  public func remove(forKey key: String) throws(MagpieError) {
    let path = fileURL(forKey: key).path
    let size = FileIO.status(path)?.size ?? 0
    try FileIO.removeFile(path)
    estimatedSize.withLock { $0 = $0.map { max(0, $0 - size) } }
  }

  /// Removes every entry in the folder, with the metadata (validators)
  /// each carries, and dead writers' temporary files; the folder stays.
  /// A write in progress in another process lands after the clear.
  public func clear() throws(MagpieError) {
    for entry in try FileIO.listFiles(configuration.directory.path, includingHidden: true) {
      if entry.name.hasPrefix(Self.temporaryPrefix) {
        _ = FileIO.removeIfAbandoned(entry.path)
      } else if !entry.name.hasPrefix(".") {
        try FileIO.removeFile(entry.path)
      }
    }
    estimatedSize.withLock { $0 = 0 }
  }

  /// Removes expired files and crash leftovers, then, when a size limit is
  /// set and exceeded, the least recently used files until the folder holds
  /// at most half the limit.
  @discardableResult
  public func clean() throws(MagpieError) -> CleanResult {
    let now = configuration.now()
    var live: [FileIO.Entry] = []  // in directory order
    var result = CleanResult(expiredFiles: 0, evictedFiles: 0, freedBytes: 0)
    for entry in try FileIO.listFiles(configuration.directory.path, includingHidden: true) {
      let age = now.timeIntervalSince(entry.modified)
      if entry.name.hasPrefix(Self.temporaryPrefix) {
        // A dead writer's (no lock held), or one so old that its writer
        // must be gone even where the file system has no flock.
        if FileIO.removeIfAbandoned(entry.path) {
          result.freedBytes += entry.size
        } else if age > Self.staleTemporaryAge {
          try? FileIO.removeFile(entry.path)
          result.freedBytes += entry.size
        }
        continue
      }
      if entry.name.hasPrefix(".") { continue }
      if age > configuration.expiration.interval {
        try FileIO.removeFile(entry.path)
        result.expiredFiles += 1
        result.freedBytes += entry.size
      } else {
        live.append(entry)
      }
    }
    var total = live.reduce(0) { $0 + $1.size }
    if let limit = configuration.sizeLimit, total > limit {
      let target = limit / 2
      // Choose the least recently used, but unlink in directory order:
      // ext4 removes 100,000 entries in that order over ten times faster
      // than in random order.
      var victims: [Int] = []
      for position in live.indices.sorted(by: { live[$0].modified < live[$1].modified }) where total > target {
        victims.append(position)
        total -= live[position].size
      }
      for position in victims.sorted() {
        try FileIO.removeFile(live[position].path)
        result.evictedFiles += 1
        result.freedBytes += live[position].size
      }
    }
    estimatedSize.withLock { $0 = total }
    if result.expiredFiles + result.evictedFiles > 0 {
      MagpieLogging.log(
        .info, "cache",
        "cleaned \(configuration.directory.path): \(result.expiredFiles) expired, \(result.evictedFiles) evicted, "
          + "\(result.freedBytes) bytes freed")
    }
    return result
  }

  /// The bytes all cached files take.
  public func totalSize() throws(MagpieError) -> Int {
    let total = try FileIO.listFiles(configuration.directory.path).reduce(0) { $0 + $1.size }
    estimatedSize.withLock { $0 = total }
    return total
  }

  /// The number of cached files.
  public func count() throws(MagpieError) -> Int {
    try FileIO.listFiles(configuration.directory.path).count
  }

  private func currentSize(adding delta: Int) throws(MagpieError) -> Int {
    if let known = estimatedSize.withLock({ state -> Int? in
      guard let size = state else { return nil }
      state = size + delta
      return size + delta
    }) {
      return known
    }
    return try totalSize()
  }
}
