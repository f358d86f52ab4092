import Foundation

extension ImageDownloader {
  /// Callbacks of one subscriber; all are called on the downloader's tasks.
  public struct Handlers: Sendable {
    /// Bytes received so far and the total the server announced.
    public var progress: (@Sendable (_ received: Int64, _ expected: Int64?) -> Void)?
    /// All bytes received so far, after each chunk (for progressive
    /// decoding; costs a copy when the subscriber keeps them).
    public var data: (@Sendable (Data) -> Void)?
    /// The end: the response, or why there is none.
    public var completion: @Sendable (Result<Response, MagpieError>) -> Void

    /// Handlers with a completion and optional progress callbacks.
    public init(
      progress: (@Sendable (Int64, Int64?) -> Void)? = nil, data: (@Sendable (Data) -> Void)? = nil,
      completion: @escaping @Sendable (Result<Response, MagpieError>) -> Void
    ) {
      self.progress = progress
      self.data = data
      self.completion = completion
    }
  }
}
