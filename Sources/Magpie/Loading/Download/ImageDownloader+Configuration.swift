import Foundation

extension ImageDownloader {
  /// How the downloader schedules and retries.
  public struct Configuration: Sendable {
    /// Where bytes come from.
    public var dataLoader: any DataLoading
    /// Transfers running at once (default 6).
    public var maximumConcurrentDownloads: Int
    /// Order among waiting downloads of equal priority (default FIFO).
    public var executionOrder: ExecutionOrder
    /// When to try again after a failure.
    public var retryPolicy: RetryPolicy
    /// Waits between attempts; tests substitute a virtual clock.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// How many transfers may start a second (``RateLimit/default``: 80,
    /// 25 at once, as Nuke's); `nil` starts each as soon as it has a slot.
    /// Attempts of a retry pass it too. Servers and batch tools that load
    /// a known list want `nil`; a UI over a scrolling list wants it on.
    public var rateLimit: RateLimit?
    /// Whether a transfer that fails part-way keeps what it received, so
    /// that the retry, or the next load of the URL, asks for the rest
    /// (`Range` with `If-Range`) instead of starting over (Nuke's
    /// resumable data; default on). Only for servers that announce
    /// `Accept-Ranges: bytes` and name the version with a strong `ETag`
    /// or `Last-Modified`; at most 32 bodies and 64 MiB are kept.
    public var resumesDownloads = true
    /// The rate limiter's clock; tests substitute a virtual one.
    var rateClock = RateClock.system
    /// Gets the download stage's ``EngineEvent``s (tests observe the
    /// tasks it makes through it).
    var engineObserver: (@Sendable (EngineEvent) -> Void)?

    /// Defaults: 6 at once, FIFO, three attempts, 80 starts a second.
    public init(
      dataLoader: any DataLoading, maximumConcurrentDownloads: Int = 6, executionOrder: ExecutionOrder = .fifo,
      retryPolicy: RetryPolicy = RetryPolicy(), rateLimit: RateLimit? = .default,
      sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
      self.rateLimit = rateLimit
      self.dataLoader = dataLoader
      self.maximumConcurrentDownloads = max(1, maximumConcurrentDownloads)
      self.executionOrder = executionOrder
      self.retryPolicy = retryPolicy
      self.sleep = sleep
    }
  }

  /// The order among waiting downloads of equal priority.
  public enum ExecutionOrder: Sendable {
    /// Oldest first.
    case fifo
    /// Newest first: what a fast-scrolling list wants.
    case lifo
  }
}
