import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ImageDownloader {
  /// A finished transfer.
  public struct Response: Sendable {
    /// The body.
    public var data: Data
    /// The final response (after redirects).
    public var response: HTTPURLResponse
    /// Where the time went.
    public var metrics: Metrics
  }

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
