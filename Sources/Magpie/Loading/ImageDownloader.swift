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

  /// One subscriber's handle: cancel it or change its priority.
  public struct Token: Hashable, Sendable {
    let download: Int
    let subscriber: Int
  }

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

  private struct Subscriber {
    var priority: DownloadPriority
    var handlers: Handlers
  }

  private struct Download {
    var key: String
    var request: URLRequest
    var subscribers: [Int: Subscriber] = [:]
    var task: Task<Void, Never>?
    var enqueued: ContinuousClock.Instant
    var started: ContinuousClock.Instant?
    var received: Int64 = 0
    var expected: Int64?

    var priority: DownloadPriority { subscribers.values.map(\.priority).max() ?? .normal }
  }

  private struct State {
    var queue: WorkQueue
    var downloads: [Int: Download] = [:]
    var byKey: [String: Int] = [:]
    var nextID = 0
  }

  /// The configuration in force.
  public let configuration: Configuration
  private let state: Lock<State>
  private let clock = ContinuousClock()

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
  public func download(_ request: URLRequest, priority: DownloadPriority = .normal, handlers: Handlers) -> Token {
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
    for request: URLRequest, priority: DownloadPriority = .normal,
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
  public func setPriority(_ priority: DownloadPriority, for token: Token) {
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

  // MARK: Running

  private func start(_ ids: [Int]) {
    for id in ids {
      let request: URLRequest? = state.withLock { state in
        guard state.downloads[id] != nil else { return nil }
        state.downloads[id]!.started = clock.now
        return state.downloads[id]!.request
      }
      guard let request else { continue }
      let task = Task.detached { [self] in
        let result = await run(id, request)
        finish(id, result)
      }
      let cancelled = state.withLock { state -> Bool in
        guard state.downloads[id] != nil else { return true }
        state.downloads[id]!.task = task
        return false
      }
      // Every subscriber left between starting and recording the task.
      if cancelled { task.cancel() }
    }
  }

  private func run(_ id: Int, _ request: URLRequest) async -> Result<Response, MagpieError> {
    let begun = clock.now
    var attempt = 0
    while true {
      attempt += 1
      let outcome = await transfer(id, request)
      switch outcome {
      case .success(let (data, response)):
        let metrics = state.withLock { state -> Metrics in
          let download = state.downloads[id]
          return Metrics(
            queueWait: (download?.started ?? begun) - (download?.enqueued ?? begun), transfer: clock.now - begun,
            attempts: attempt, bytes: data.count)
        }
        return .success(Response(data: data, response: response, metrics: metrics))
      case .failure(let error):
        if Task.isCancelled { return .failure(MagpieError(.cancelled, "the download was cancelled")) }
        guard let wait = configuration.retryPolicy.delay(afterAttempt: attempt, error: error) else {
          return .failure(error)
        }
        do {
          try await configuration.sleep(wait)
        } catch {
          return .failure(MagpieError(.cancelled, "the download was cancelled while waiting to retry"))
        }
      }
    }
  }

  /// One attempt: the response and the whole body, with progress to every
  /// subscriber.
  private func transfer(_ id: Int, _ request: URLRequest) async -> Result<(Data, HTTPURLResponse), MagpieError> {
    var data = Data()
    var response: HTTPURLResponse?
    do {
      for try await event in configuration.dataLoader.load(request) {
        switch event {
        case .response(let http):
          response = http
          data = Data()
          let expected = http.expectedContentLength
          if expected > 0 { data.reserveCapacity(Int(min(expected, 256 << 20))) }
        case .data(let chunk, let received, let expected):
          data.append(chunk)
          let handlers = state.withLock { state -> [Handlers] in
            guard state.downloads[id] != nil else { return [] }
            state.downloads[id]!.received = received
            state.downloads[id]!.expected = expected
            return state.downloads[id]!.subscribers.values.map(\.handlers)
          }
          for handler in handlers {
            handler.progress?(received, expected)
            handler.data?(data)
          }
        }
      }
    } catch let error as MagpieError {
      return .failure(error)
    } catch is CancellationError {
      return .failure(MagpieError(.cancelled, "the download was cancelled"))
    } catch {
      return .failure(MagpieError(.network, "\(error)", underlying: error))
    }
    guard let response else {
      return .failure(MagpieError(.network, "the connection ended before a response arrived"))
    }
    return .success((data, response))
  }

  private func finish(_ id: Int, _ result: Result<Response, MagpieError>) {
    let (subscribers, toStart) = state.withLock { state -> ([Subscriber], [Int]) in
      guard let download = state.downloads.removeValue(forKey: id) else { return ([], []) }
      if state.byKey[download.key] == id { state.byKey[download.key] = nil }
      return (Array(download.subscribers.values), state.queue.remove(id))
    }
    start(toStart)
    for subscriber in subscribers { subscriber.handlers.completion(result) }
  }
}
