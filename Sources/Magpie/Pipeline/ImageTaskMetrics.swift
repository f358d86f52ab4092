/// Where one image task's time went and how many bytes it moved.
public struct ImageTaskMetrics: Sendable, Equatable {
  /// Waiting for a free download slot.
  public var queueWait: Duration = .zero
  /// Downloading (or reading a provider), retries included.
  public var network: Duration = .zero
  /// Decoding.
  public var decode: Duration = .zero
  /// Running processors.
  public var process: Duration = .zero
  /// Reading the disk cache.
  public var cacheRead: Duration = .zero
  /// Writing the memory cache (disk writes happen after delivery).
  public var cacheWrite: Duration = .zero
  /// From the request to the result.
  public var total: Duration = .zero
  /// Body bytes downloaded or read from a provider.
  public var bytesLoaded: Int = 0
  /// Bytes read from the disk cache.
  public var bytesFromCache: Int = 0
  /// Download attempts (0 when nothing was downloaded).
  public var attempts: Int = 0
  /// Whether a cached image was revalidated with the origin (304).
  public var revalidated = false

  /// Empty metrics.
  public init() {}

  /// Adds `other`'s times and counts (a shared stage's share of the work).
  mutating func add(_ other: ImageTaskMetrics) {
    queueWait += other.queueWait
    network += other.network
    decode += other.decode
    process += other.process
    cacheRead += other.cacheRead
    cacheWrite += other.cacheWrite
    bytesLoaded += other.bytesLoaded
    bytesFromCache += other.bytesFromCache
    attempts += other.attempts
  }
}
