import Foundation

/// The memory cache and the disk cache behind one store/retrieve API
/// (SDImageCache, Kingfisher's ImageCache).
///
/// Memory holds decoded images, charged by their decoded bytes; disk holds
/// bytes made by the ``CacheSerializer``. Disk I/O never runs on the
/// caller's thread: writes (which `fsync`) go to the disk cache's own I/O
/// queue, reads run on Swift's global executor. A disk failure never loses
/// the memory entry: ``store(_:original:forKey:in:metadata:)`` stores in
/// memory first and then throws the disk error for the caller to report.
public final class ImageCache: Sendable {
  /// Which caches an operation touches.
  public struct Targets: OptionSet, Sendable {
    /// The bits: 1 memory, 2 disk.
    public let rawValue: Int

    /// Creates targets from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The memory cache.
    public static let memory = Targets(rawValue: 1)
    /// The disk cache.
    public static let disk = Targets(rawValue: 2)
    /// Both.
    public static let all: Targets = [.memory, .disk]
  }

  /// What a lookup found.
  public struct Result: Sendable {
    /// The image, or `nil` on a miss.
    public var image: Image?
    /// Where it came from; `.none` on a miss.
    public var cacheType: CacheType
    /// Bytes read from disk for it (0 for memory hits and misses).
    public var bytesRead: Int = 0
  }

  /// Decoded images by ``ImageCacheKey/stringValue``.
  public let memoryCache: MemoryCache<String, Image>
  /// Serialized images and original bytes; `nil` for a memory-only cache.
  public let diskCache: DiskCache?
  /// How images become disk bytes and back.
  public let serializer: any CacheSerializer
  private let pressureToken: UInt64?

  /// The default memory budget: a quarter of the memory this process may use
  /// (the cgroup limit counts), at most 512 MB.
  public static var defaultMemoryCostLimit: Int {
    min(SystemMemory.available / 4, 512 << 20)
  }

  /// A cache over the given stores. With `trimsOnMemoryPressure`, the shared
  /// ``MemoryPressureMonitor`` halves the memory cache under moderate
  /// pressure and empties it under critical pressure.
  public init(
    memoryCache: MemoryCache<String, Image> = MemoryCache(limits: .init(totalCost: ImageCache.defaultMemoryCostLimit)),
    diskCache: DiskCache?, serializer: any CacheSerializer = DefaultCacheSerializer(),
    trimsOnMemoryPressure: Bool = true
  ) {
    self.memoryCache = memoryCache
    self.diskCache = diskCache
    self.serializer = serializer
    if trimsOnMemoryPressure {
      pressureToken = MemoryPressureMonitor.shared.subscribe { [weak memoryCache] level in
        guard let memoryCache else { return }
        memoryCache.trim(toCost: level == .critical ? 0 : memoryCache.totalCost / 2)
      }
    } else {
      pressureToken = nil
    }
  }

  /// A cache with the default memory budget and a disk cache in the default
  /// folder for `namespace` (`~/.cache/magpie/NAMESPACE`).
  public convenience init(namespace: String) throws(MagpieError) {
    self.init(diskCache: try DiskCache(namespace: namespace))
  }

  deinit {
    if let pressureToken { MemoryPressureMonitor.shared.unsubscribe(pressureToken) }
  }

  // MARK: Storing

  /// Stores `image` under `key` in `targets`: memory at once, then disk
  /// through the serializer. `original` is the encoded data the image was
  /// decoded from before any processing, when known. `metadata` is kept
  /// with the disk entry (see ``DiskCache/store(_:forKey:metadata:)``).
  ///
  /// - Throws: the disk write's error (a full disk, a read-only folder, or an
  ///   image the serializer cannot encode). The memory entry is stored
  ///   regardless, so a load can succeed and still report the failure.
  public func store(
    _ image: Image, original: Data? = nil, forKey key: ImageCacheKey, in targets: Targets = .all,
    metadata: Data? = nil
  ) async throws(MagpieError) {
    if targets.contains(.memory) {
      memoryCache.setValue(image, forKey: key.stringValue, cost: image.byteCount)
    }
    guard targets.contains(.disk), let diskCache else { return }
    let serializer = self.serializer
    let keyString = key.stringValue
    try await diskCache.perform { disk throws(MagpieError) in
      guard let data = serializer.data(with: image, original: original) else {
        throw MagpieError(.encodingFailed, "the cache serializer could not encode the image for \(key)")
      }
      try disk.store(data, forKey: keyString, metadata: metadata)
    }
  }

  /// The metadata stored with `key`'s disk entry, or `nil` when there is
  /// none.
  public func metadata(forKey key: ImageCacheKey) async -> Data? {
    guard let diskCache else { return nil }
    let keyString = key.stringValue
    return try? await diskCache.perform { disk in disk.metadata(forKey: keyString) }
  }

  /// Stores the original (unprocessed) bytes of `source` on disk, so later
  /// requests with other processors skip the network.
  public func storeOriginalData(_ data: Data, forSource source: String) async throws(MagpieError) {
    guard let diskCache else { return }
    let key = ImageCacheKey(source: source).stringValue
    try await diskCache.perform { disk throws(MagpieError) in try disk.store(data, forKey: key) }
  }

  // MARK: Retrieving

  /// The image for `key` from memory, else from disk (which also puts it in
  /// memory). A disk file the serializer cannot read is a miss and is
  /// removed.
  ///
  /// The disk read and the decode run on Swift's global concurrent executor
  /// (`@concurrent`: never on the caller's actor or thread), without a hop
  /// to the disk cache's I/O queue: a cached thumbnail reads in microseconds,
  /// and two thread hand-offs would cost more than the read.
  @concurrent
  public func retrieveImage(
    forKey key: ImageCacheKey, from targets: Targets = .all, options: DecodeOptions = DecodeOptions()
  ) async throws(MagpieError) -> Result {
    if targets.contains(.memory), let image = memoryCache.value(forKey: key.stringValue) {
      return Result(image: image, cacheType: .memory)
    }
    guard targets.contains(.disk), let diskCache else { return Result(image: nil, cacheType: .none) }
    let keyString = key.stringValue
    guard let data = try diskCache.data(forKey: keyString) else { return Result(image: nil, cacheType: .none) }
    guard let image = serializer.image(with: data, options: options) else {
      try? diskCache.remove(forKey: keyString)
      return Result(image: nil, cacheType: .none)
    }
    if targets.contains(.memory) {
      memoryCache.setValue(image, forKey: keyString, cost: image.byteCount)
    }
    return Result(image: image, cacheType: .disk, bytesRead: data.count)
  }

  /// The original bytes stored for `source`, if any; read like
  /// ``retrieveImage(forKey:from:options:)``, off the caller's actor.
  @concurrent
  public func originalData(forSource source: String) async throws(MagpieError) -> Data? {
    guard let diskCache else { return nil }
    return try diskCache.data(forKey: ImageCacheKey(source: source).stringValue)
  }

  /// Where `key` is cached now, without loading it (memory first). Checks
  /// the disk with one `stat` on the calling thread.
  public func cachedType(forKey key: ImageCacheKey) -> CacheType {
    if memoryCache.contains(key.stringValue) { return .memory }
    if let diskCache, diskCache.contains(key.stringValue) { return .disk }
    return .none
  }

  // MARK: Removing

  /// Removes `key`'s entries from `targets`.
  public func removeImage(forKey key: ImageCacheKey, from targets: Targets = .all) async throws(MagpieError) {
    if targets.contains(.memory) { memoryCache.removeValue(forKey: key.stringValue) }
    guard targets.contains(.disk), let diskCache else { return }
    let keyString = key.stringValue
    try await diskCache.perform { disk throws(MagpieError) in try disk.remove(forKey: keyString) }
  }

  /// Empties the memory cache.
  public func clearMemory() {
    memoryCache.removeAll()
  }

  /// Empties the disk cache.
  public func clearDisk() async throws(MagpieError) {
    guard let diskCache else { return }
    try await diskCache.perform { disk throws(MagpieError) in try disk.clear() }
  }

  /// Removes expired memory entries and cleans the disk cache (expired
  /// files, then least recently used past the size limit).
  @discardableResult
  public func clean() async throws(MagpieError) -> DiskCache.CleanResult? {
    memoryCache.removeExpired()
    guard let diskCache else { return nil }
    return try await diskCache.perform { disk throws(MagpieError) in try disk.clean() }
  }
}
