/// Which cache tiers one load reads and writes: the request's
/// ``ImageLoadingOptions`` and its ``ImageRequest/skippedReads`` and
/// ``ImageRequest/skippedWrites`` folded into one value that the cache's
/// walks ask per tier. Two loads with different access are different work.
struct TierAccess: Hashable, Sendable {
  /// Whether the memory cache is read.
  var readsMemory = true
  /// Whether the memory cache is written.
  var writesMemory = true
  /// No storage tier is read.
  var readsNoStorage = false
  /// No storage tier is written.
  var writesNoStorage = false
  /// Storage tiers, by ``CacheType``, that are not read.
  var skippedReads: Set<CacheType> = []
  /// Storage tiers, by ``CacheType``, that are not written.
  var skippedWrites: Set<CacheType> = []

  /// Every tier read and written.
  static let all = TierAccess()

  /// The access `request` asks for.
  init(_ request: ImageRequest) {
    let options = request.options
    let reads = request.skippedReads
    let writes = request.skippedWrites
    readsMemory = !options.contains(.disableMemoryCacheReads) && !reads.contains(.memory)
    writesMemory = !options.contains(.disableMemoryCacheWrites) && !writes.contains(.memory)
    readsNoStorage = options.contains(.disableDiskCacheReads)
    writesNoStorage = options.contains(.disableDiskCacheWrites)
    skippedReads = reads.subtracting([.memory])
    skippedWrites = writes.subtracting([.memory])
  }

  private init() {}

  /// Whether `tier` is read (its own read policy aside).
  func reads(_ tier: CacheTier) -> Bool {
    !readsNoStorage && (skippedReads.isEmpty || !skippedReads.contains(tier.cacheType))
  }

  /// Whether `tier` is written.
  func writes(_ tier: CacheTier) -> Bool {
    !writesNoStorage && (skippedWrites.isEmpty || !skippedWrites.contains(tier.cacheType))
  }
}
