/// Where a retrieved image came from: not a cache, the memory cache, or a
/// storage tier named by its ``ImageDataStoring/name``.
///
/// `.none`, `.memory` and `.disk` (the name of a default ``DiskCache``)
/// are spelled as static members; ``tier(_:)`` names any other tier.
public struct CacheType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The tier's name (`"none"`, `"memory"`, `"disk"`, or a storage's name).
  public let rawValue: String

  /// The cache type named `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Not from a cache: it was loaded from its source.
  public static let none = CacheType(rawValue: "none")
  /// From the memory cache.
  public static let memory = CacheType(rawValue: "memory")
  /// From the disk cache (a ``DiskCache`` with its default name).
  public static let disk = CacheType(rawValue: "disk")

  /// The storage tier whose ``ImageDataStoring/name`` is `name`.
  public static func tier(_ name: String) -> CacheType { CacheType(rawValue: name) }

  /// The name.
  public var description: String { rawValue }
}
