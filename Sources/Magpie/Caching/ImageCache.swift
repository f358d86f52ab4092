import Foundation

/// The memory cache of decoded images in front of a chain of storage tiers
/// of encoded bytes (SDImageCache, Kingfisher's ImageCache, Nuke's
/// DataCaching), behind one store/retrieve API.
///
/// Memory holds decoded images, charged by their decoded bytes; each
/// ``CacheTier`` (the ``DiskCache``, or any ``ImageDataStoring``) holds
/// bytes made by the ``CacheSerializer``. Lookups read memory, then the
/// tiers in order; a hit in a tier fills memory and the faster tiers (per
/// the tier's ``CacheTier/fillsFasterTiers``). Disk I/O never runs on the
/// caller's thread: writes (which `fsync`) go to the disk cache's own I/O
/// queue, reads run on Swift's global executor. A failed write never loses
/// the memory entry: ``store(_:original:forKey:in:metadata:)`` stores in
/// memory first and then throws the tier's error for the caller to report.
/// A failed read goes to ``readFailed`` and counts as a miss.
public final class ImageCache: Sendable {
  /// Which caches an operation touches.
  public struct Targets: OptionSet, Sendable {
    /// The bits: 1 memory, 2 the storage tiers.
    public let rawValue: Int

    /// Creates targets from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The memory cache.
    public static let memory = Targets(rawValue: 1)
    /// The storage tiers: the disk cache and any other.
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
    /// Bytes read from a tier for it (0 for memory hits and misses).
    public var bytesRead: Int = 0
  }

  /// Decoded images by ``ImageCacheKey/stringValue``.
  public let memoryCache: MemoryCache<String, Image>
  /// The storage tiers behind memory, fastest first.
  public let tiers: [CacheTier]
  /// The first tier that is a ``DiskCache``; `nil` when there is none.
  public let diskCache: DiskCache?
  /// How images become tier bytes and back.
  public let serializer: any CacheSerializer
  /// Receives each failed tier read (the key and the tier's name) instead
  /// of it passing as a silent miss; the lookup still counts it a miss.
  public let readFailed: (@Sendable (MagpieError, ImageCacheKey, String) -> Void)?
  /// Write-behind entries on their way to the tiers, which reads see.
  let pendingWrites = PendingWrites()
  private let pressureToken: UInt64?

  /// The default memory budget: a quarter of the memory this process may use
  /// (the cgroup limit counts), at most 512 MB.
  public static var defaultMemoryCostLimit: Int {
    min(SystemMemory.available / 4, 512 << 20)
  }

  /// A cache of `memoryCache` in front of `tiers`, read in order. With
  /// `trimsOnMemoryPressure`, the shared ``MemoryPressureMonitor`` halves
  /// the memory cache under moderate pressure and empties it under
  /// critical pressure.
  public init(
    memoryCache: MemoryCache<String, Image> = MemoryCache(limits: .init(totalCost: ImageCache.defaultMemoryCostLimit)),
    tiers: [CacheTier], serializer: any CacheSerializer = DefaultCacheSerializer(), trimsOnMemoryPressure: Bool = true,
    readFailed: (@Sendable (MagpieError, ImageCacheKey, String) -> Void)? = nil
  ) {
    self.memoryCache = memoryCache
    self.tiers = tiers
    diskCache = tiers.lazy.compactMap { $0.storage as? DiskCache }.first
    self.serializer = serializer
    self.readFailed = readFailed
    if trimsOnMemoryPressure {
      pressureToken = MemoryPressureMonitor.shared.subscribe { [weak memoryCache] level in
        guard let memoryCache else { return }
        memoryCache.trim(toCost: level == .critical ? 0 : memoryCache.totalCost / 2)
      }
    } else {
      pressureToken = nil
    }
  }

  /// A cache over the memory cache and `diskCache` (its only tier, with
  /// the default policies), or memory alone when `diskCache` is `nil`.
  public convenience init(
    memoryCache: MemoryCache<String, Image> = MemoryCache(limits: .init(totalCost: ImageCache.defaultMemoryCostLimit)),
    diskCache: DiskCache?, serializer: any CacheSerializer = DefaultCacheSerializer(),
    trimsOnMemoryPressure: Bool = true, readFailed: (@Sendable (MagpieError, ImageCacheKey, String) -> Void)? = nil
  ) {
    self.init(
      memoryCache: memoryCache, tiers: diskCache.map { [CacheTier($0)] } ?? [], serializer: serializer,
      trimsOnMemoryPressure: trimsOnMemoryPressure, readFailed: readFailed)
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

  /// Stores `image` under `key` in `targets`: memory at once, then every
  /// tier through the serializer (each awaited, whatever its write mode).
  /// `original` is the encoded data the image was decoded from before any
  /// processing, when known. `metadata` is kept with each tier's entry (see
  /// ``DiskCache/store(_:forKey:metadata:)``).
  ///
  /// - Throws: the first failed tier write's error (a full disk, a
  ///   read-only folder, or an image the serializer cannot encode), after
  ///   trying every tier. The memory entry is stored regardless, so a load
  ///   can succeed and still report the failure.
  public func store(
    _ image: Image, original: Data? = nil, forKey key: ImageCacheKey, in targets: Targets = .all,
    metadata: Data? = nil
  ) async throws(MagpieError) {
    if targets.contains(.memory) {
      memoryCache.setValue(image, forKey: key.stringValue, cost: image.byteCount)
    }
    guard targets.contains(.disk), !tiers.isEmpty else { return }
    let data = try await encode(image, original: original, key: key)
    try await storeData(data, forKey: key, metadata: metadata, in: tiers)
  }

  /// The metadata stored with `key`'s entry in the first readable tier
  /// that has any, or `nil` when none has.
  @concurrent
  public func metadata(forKey key: ImageCacheKey) async -> Data? {
    if let staged = pendingWrites.staged(forKey: key.stringValue) { return staged.metadata }
    for tier in tiers where tier.readPolicy == .always {
      do throws(MagpieError) {
        if let metadata = try await tier.storage.metadata(forKey: key.stringValue) { return metadata }
      } catch {
        readFailed?(error, key, tier.storage.name)
      }
    }
    return nil
  }

  /// Stores the original (unprocessed) bytes of `source` in every tier, so
  /// later requests with other processors skip the network.
  public func storeOriginalData(_ data: Data, forSource source: String) async throws(MagpieError) {
    try await storeData(data, forKey: ImageCacheKey(source: source), metadata: nil, in: tiers)
  }

  // MARK: Retrieving

  /// The image for `key` from memory, else from the tiers in order (which
  /// also fills memory and, per each tier's policy, the faster tiers). A
  /// stored entry the serializer cannot read is a miss and is removed; a
  /// failed read goes to ``readFailed`` and is a miss.
  ///
  /// Tier reads and the decode run on Swift's global concurrent executor
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
    guard targets.contains(.disk),
      let hit = await readTiers(forKey: key, decoding: options, fills: true, writeFailed: nil),
      let image = hit.image
    else { return Result(image: nil, cacheType: .none) }
    await hit.fill?()
    if targets.contains(.memory) && hit.fillsMemory {
      memoryCache.setValue(image, forKey: key.stringValue, cost: image.byteCount)
    }
    return Result(image: image, cacheType: hit.cacheType, bytesRead: hit.data.count)
  }

  /// The original bytes stored for `source` in the first tier that has
  /// them, if any; read like ``retrieveImage(forKey:from:options:)``.
  @concurrent
  public func originalData(forSource source: String) async throws(MagpieError) -> Data? {
    let hit = await readTiers(forKey: ImageCacheKey(source: source), decoding: nil, fills: true, writeFailed: nil)
    await hit?.fill?()
    return hit?.data
  }

  /// Where `key` is cached now, without loading it: memory, else the first
  /// readable ``DiskCache`` tier that has it (one `stat` on the calling
  /// thread). Other tiers are asynchronous: see ``containingTier(forKey:)``.
  public func cachedType(forKey key: ImageCacheKey) -> CacheType {
    if memoryCache.contains(key.stringValue) { return .memory }
    if let staged = pendingWrites.staged(forKey: key.stringValue) { return staged.cacheType }
    for tier in tiers where tier.readPolicy == .always {
      if let disk = tier.storage as? DiskCache, disk.contains(key.stringValue) { return tier.cacheType }
    }
    return .none
  }

  /// Where `key` is cached now, asking every readable tier in order.
  @concurrent
  public func containingTier(forKey key: ImageCacheKey) async -> CacheType {
    if memoryCache.contains(key.stringValue) { return .memory }
    if let staged = pendingWrites.staged(forKey: key.stringValue) { return staged.cacheType }
    for tier in tiers where tier.readPolicy == .always {
      if await tier.storage.containsData(forKey: key.stringValue) { return tier.cacheType }
    }
    return .none
  }

  // MARK: Removing

  /// Removes `key`'s entries from `targets`.
  public func removeImage(forKey key: ImageCacheKey, from targets: Targets = .all) async throws(MagpieError) {
    if targets.contains(.memory) { memoryCache.removeValue(forKey: key.stringValue) }
    guard targets.contains(.disk) else { return }
    pendingWrites.remove(forKey: key.stringValue)
    for tier in tiers { try await tier.storage.removeData(forKey: key.stringValue) }
  }

  /// Empties the memory cache.
  public func clearMemory() {
    memoryCache.removeAll()
  }

  /// Empties every tier: the disk cache and any other.
  public func clearDisk() async throws(MagpieError) {
    pendingWrites.removeAll()
    for tier in tiers { try await tier.storage.removeAll() }
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
