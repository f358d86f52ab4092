import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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

  /// One subscriber's handle: cancel it or change its priority.
  public struct Token: Sendable {
    let subscription: StageSubscription<Response>
  }

  /// Subscribes to the download of `request`, joining an identical one in
  /// flight or queueing a new one: the callback form of
  /// ``data(for:priority:progress:)``. The handlers are called on the
  /// downloader's threads.
  @discardableResult
  public func download(_ request: URLRequest, priority: ImageRequest.Priority = .normal, handlers: Handlers) -> Token {
    let observer = StageObserver.call { event in
      switch event {
      case .progress(let received, let expected): handlers.progress?(received, expected)
      case .data(let data): handlers.data?(data)
      }
    }
    let subscription = subscribe(
      request, priority: priority, wantsData: handlers.data != nil, observer: observer,
      completion: handlers.completion)
    return Token(subscription: subscription)
  }

  /// Cancels one subscription: its completion is called at once with
  /// ``MagpieError/Code/cancelled``. The transfer stops when no subscriber is
  /// left.
  public func cancel(_ token: Token) {
    token.subscription.cancel()
  }

  /// Changes a subscription's priority; a waiting download starts by the
  /// highest priority among its subscribers.
  public func setPriority(_ priority: ImageRequest.Priority, for token: Token) {
    token.subscription.setPriority(priority)
  }
}
