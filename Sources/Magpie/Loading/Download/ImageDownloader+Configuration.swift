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
    /// Gets the download stage's ``EngineEvent``s (tests observe the
    /// tasks it makes through it).
    var engineObserver: (@Sendable (EngineEvent) -> Void)?

    /// Defaults: 6 at once, FIFO, three attempts.
    public init(
      dataLoader: any DataLoading, maximumConcurrentDownloads: Int = 6, executionOrder: ExecutionOrder = .fifo,
      retryPolicy: RetryPolicy = RetryPolicy(),
      sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
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
