/// One storage behind an ``ImageCache``'s memory cache, with how the chain
/// uses it. Tiers are ordered fastest first: a lookup reads them in order
/// after memory, and a hit in one fills the faster ones before it.
public struct CacheTier: Sendable {
  /// Whether lookups read this tier.
  public enum ReadPolicy: Sendable, Equatable {
    /// Lookups read it after the faster tiers miss.
    case always
    /// Lookups skip it; it is only written (a backup, a warm-up feed).
    case never
  }

  /// When a load's writes to this tier happen.
  public enum WriteMode: Sendable, Equatable {
    /// Before the load is delivered: the load waits for the write.
    case writeThrough
    /// After the load is delivered, in the background
    /// (``ImageManager/waitForPendingWrites()`` waits for it).
    case writeBehind
  }

  /// The storage.
  public var storage: any ImageDataStoring
  /// Whether lookups read it.
  public var readPolicy: ReadPolicy
  /// Whether a hit here fills the memory cache and the faster tiers.
  public var fillsFasterTiers: Bool
  /// When loads (and fills from slower tiers) write it.
  public var writeMode: WriteMode

  /// A tier over `storage`: read always, filling faster tiers on a hit,
  /// written after delivery.
  public init(
    _ storage: any ImageDataStoring, readPolicy: ReadPolicy = .always, fillsFasterTiers: Bool = true,
    writeMode: WriteMode = .writeBehind
  ) {
    self.storage = storage
    self.readPolicy = readPolicy
    self.fillsFasterTiers = fillsFasterTiers
    self.writeMode = writeMode
  }

  /// The ``CacheType`` of images read from this tier.
  public var cacheType: CacheType { .tier(storage.name) }
}
