extension ImageDownloader {
  /// Time and bytes of one transfer, shared by its subscribers.
  public struct Metrics: Sendable, Equatable {
    /// Time spent waiting for a free slot.
    public var queueWait: Duration
    /// Time from the first attempt's start to the last byte, retries included.
    public var transfer: Duration
    /// Attempts made.
    public var attempts: Int
    /// Body bytes received in the successful attempt.
    public var bytes: Int
  }
}
