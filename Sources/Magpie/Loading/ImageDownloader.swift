import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Downloads image data: at most N transfers at once (6 by default),
/// highest priority first, identical requests coalesced into one transfer
/// with many subscribers, transient failures retried with backoff
/// (SDWebImageDownloader, Nuke's data loading stage).
///
/// Each subscriber gets its own progress and completion. Cancelling one
/// subscriber completes it at once with ``MagpieError/Code/cancelled`` and
/// leaves the others running; the transfer itself is cancelled (and its
/// connection closed) when its last subscriber leaves.
public final class ImageDownloader: Sendable {
  /// The configuration in force.
  public let configuration: Configuration
  let state: Lock<State>
  let clock = ContinuousClock()

  /// A downloader with `configuration`.
  public init(configuration: Configuration) {
    self.configuration = configuration
    let order: WorkQueue.Order = configuration.executionOrder == .fifo ? .fifo : .lifo
    self.state = Lock(
      State(queue: WorkQueue(maximumRunning: configuration.maximumConcurrentDownloads, order: order)))
  }

  /// The key identical requests share: method, URL and header fields.
  public static func coalescingKey(for request: URLRequest) -> String {
    var key = (request.httpMethod ?? "GET") + " " + (request.url?.absoluteString ?? "")
    for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key.lowercased() < $1.key.lowercased() })
    {
      key += "\n" + name.lowercased() + ": " + value
    }
    return key
  }

  // MARK: Subscribing

  /// Subscribes to the download of `request`, joining an identical one in
  /// flight or queueing a new one.
  @discardableResult
  public func download(_ request: URLRequest, priority: ImageRequest.Priority = .normal, handlers: Handlers) -> Token {
    let key = Self.coalescingKey(for: request)
    let (token, toStart) = state.withLock { state -> (Token, [Int]) in
      let id: Int
      let isNew: Bool
      if let existing = state.byKey[key] {
        id = existing
        isNew = false
      } else {
        id = state.nextID
        state.nextID += 1
        state.downloads[id] = Download(key: key, request: request, enqueued: clock.now)
        state.byKey[key] = id
        isNew = true
      }
      let subscriberID = state.nextID
      state.nextID += 1
      state.downloads[id]!.subscribers[subscriberID] = Subscriber(priority: priority, handlers: handlers)
      let token = Token(download: id, subscriber: subscriberID)
      if isNew { return (token, state.queue.enqueue(id, priority: priority)) }
      state.queue.setPriority(id, state.downloads[id]!.priority)
      return (token, [])
    }
    start(toStart)
    return token
  }

  /// The body of `request`, downloaded (or joined) and awaited. Cancelling
  /// the calling task cancels this subscription only.
  public func data(
    for request: URLRequest, priority: ImageRequest.Priority = .normal,
    progress: (@Sendable (Int64, Int64?) -> Void)? = nil
  ) async throws(MagpieError) -> Response {
    let tokenBox = Lock<Token?>(nil)
    let result: Result<Response, MagpieError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let token = download(
          request, priority: priority,
          handlers: Handlers(progress: progress) { continuation.resume(returning: $0) })
        tokenBox.withLock { $0 = token }
      }
    } onCancel: {
      if let token = tokenBox.withLock({ $0 }) { cancel(token) }
    }
    // Cancelled before the token existed: the subscription ran to its end;
    // report the cancellation all the same.
    if Task.isCancelled, case .success = result { throw MagpieError(.cancelled, "the download was cancelled") }
    return try result.get()
  }

  /// Cancels one subscription: its completion is called at once with
  /// ``MagpieError/Code/cancelled``. The transfer stops when no subscriber is
  /// left.
  public func cancel(_ token: Token) {
    let (subscriber, toStart, task) = state.withLock { state -> (Subscriber?, [Int], Task<Void, Never>?) in
      guard var download = state.downloads[token.download],
        let subscriber = download.subscribers.removeValue(forKey: token.subscriber)
      else { return (nil, [], nil) }
      if !download.subscribers.isEmpty {
        state.downloads[token.download] = download
        state.queue.setPriority(token.download, download.priority)
        return (subscriber, [], nil)
      }
      state.downloads[token.download] = nil
      state.byKey[download.key] = nil
      return (subscriber, state.queue.remove(token.download), download.task)
    }
    task?.cancel()
    subscriber?.handlers.completion(.failure(MagpieError(.cancelled, "the download was cancelled")))
    start(toStart)
  }

  /// Changes a subscription's priority; a waiting download starts by the
  /// highest priority among its subscribers.
  public func setPriority(_ priority: ImageRequest.Priority, for token: Token) {
    state.withLock { state in
      guard state.downloads[token.download]?.subscribers[token.subscriber] != nil else { return }
      state.downloads[token.download]!.subscribers[token.subscriber]!.priority = priority
      state.queue.setPriority(token.download, state.downloads[token.download]!.priority)
    }
  }

  /// Downloads waiting for a slot, in the order they would start (for tests
  /// and diagnostics).
  public var waitingRequests: [URLRequest] {
    state.withLock { state in state.queue.waitingInStartOrder.compactMap { state.downloads[$0]?.request } }
  }

  /// The number of transfers running now.
  public var runningCount: Int { state.withLock { $0.queue.running.count } }

}
