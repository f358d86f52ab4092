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
}
