extension ImageDownloader {
  /// The order among waiting downloads of equal priority.
  public enum ExecutionOrder: Sendable {
    /// Oldest first.
    case fifo
    /// Newest first: what a fast-scrolling list wants.
    case lifo
  }
}
