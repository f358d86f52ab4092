import Foundation

extension DiskCache {
  /// Where and how long to keep files.
  public struct Configuration: Sendable {
    /// The folder that holds this namespace's files.
    public var directory: URL
    /// How long a file lives after its last read or write (default 7 days).
    public var expiration: CacheExpiration
    /// The size the folder may grow to before ``clean()`` trims it to half;
    /// `nil` (the default) for no limit.
    public var sizeLimit: Int?
    /// An extension for file names, e.g. `"png"`, or `nil`.
    public var fileExtension: String?
    /// Wall-clock time, used for access dates; inject a manual clock in tests.
    public var now: @Sendable () -> Date
    /// The cache's name as an ``ImageCache`` tier: its ``CacheType``.
    public var name: String
    /// The largest payload one entry may hold (default 64 MiB): storing more
    /// is an error, and a file declaring or holding more is treated as
    /// corrupt without being read.
    public var maximumEntrySize: Int
    /// When stored entries reach the disk itself (default
    /// ``DiskCacheDurability/deferred``: no flush per entry).
    public var durability: DiskCacheDurability

    /// A configuration for `directory`, with 7-day expiry, no size limit,
    /// 64 MiB entries at most and deferred durability.
    public init(
      directory: URL, expiration: CacheExpiration = .days(7), sizeLimit: Int? = nil, fileExtension: String? = nil,
      now: @escaping @Sendable () -> Date = { Date() }, name: String = "disk",
      maximumEntrySize: Int = DiskCache.defaultMaximumEntrySize, durability: DiskCacheDurability = .deferred
    ) {
      self.maximumEntrySize = maximumEntrySize
      self.durability = durability
      self.name = name
      self.directory = directory
      self.expiration = expiration
      self.sizeLimit = sizeLimit
      self.fileExtension = fileExtension
      self.now = now
    }

    /// `$XDG_CACHE_HOME/magpie/NAMESPACE`, or `~/.cache/magpie/NAMESPACE`.
    public static func defaultDirectory(namespace: String = "default") -> URL {
      let environment = ProcessInfo.processInfo.environment
      let base: URL
      if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
        base = URL(fileURLWithPath: xdg)
      } else {
        let home = environment["HOME"] ?? NSHomeDirectory()
        base = URL(fileURLWithPath: home).appendingPathComponent(".cache")
      }
      return base.appendingPathComponent("magpie").appendingPathComponent(namespace)
    }
  }
}
