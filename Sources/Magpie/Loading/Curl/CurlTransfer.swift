import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a ``CurlDataLoader`` load shares between the consumer's side (the
/// stream, cancellation) and the loader's libcurl thread, which does all
/// the work and alone ends the stream once the load has been handed to it.
final class CurlTransfer: Sendable {
  typealias Continuation = AsyncThrowingStream<[CurlEvent], any Error>.Continuation

  private static let identifiers = Atomic<Int>(0)

  /// Unique among the loads of this process.
  let id: Int
  /// Where the transfer's events go.
  enum Output: Sendable {
    /// A stream's producer end; its termination handler does the
    /// bookkeeping when the stream ends.
    case stream(Continuation)
    /// Callbacks on the libcurl thread: each round's events, then the end
    /// (once).
    case sink(events: @Sendable ([CurlEvent]) -> Void, end: @Sendable (MagpieError?) -> Void)
  }

  /// Where the events go.
  let output: Output
  /// The loader's settings.
  let configuration: DataLoaderConfiguration
  /// Whether the libcurl thread collects the whole body and yields once,
  /// at the end (``CurlDataLoader/data(for:progress:)``), instead of each
  /// chunk.
  let collectsBody: Bool
  /// Whether a collecting transfer also yields its progress, at most every
  /// ``CurlActiveTransfer/progressInterval``.
  let reportsProgress: Bool
  /// The loader's cookie jar, when it keeps one.
  let cookies: CurlCookieJar?
  /// The loader's logins, when it has a challenge handler.
  let logins: CurlLogins?
  private let cancelled = Atomic<Bool>(false)
  private let ended = Atomic<Bool>(false)
  private let preparation = Lock<Task<Void, Never>?>(nil)

  init(
    configuration: DataLoaderConfiguration, output: Output, collectsBody: Bool = false,
    reportsProgress: Bool = false, cookies: CurlCookieJar? = nil, logins: CurlLogins? = nil
  ) {
    self.cookies = cookies
    self.logins = logins
    id = Self.identifiers.add(1, ordering: .relaxed).newValue
    self.configuration = configuration
    self.output = output
    self.collectsBody = collectsBody
    self.reportsProgress = reportsProgress
  }

  /// Whether the consumer has left; callbacks check it to stop early.
  var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

  /// Marks the load cancelled and stops its request preparation.
  func cancel() {
    cancelled.store(true, ordering: .relaxed)
    preparation.withLock { $0 }?.cancel()
  }

  /// Remembers the task that runs async request modifiers.
  func setPreparation(_ task: Task<Void, Never>) {
    preparation.withLock { $0 = task }
    if isCancelled { task.cancel() }
  }

  /// Hands a round's events on: one wake-up of a waiting consumer.
  func yield(_ events: [CurlEvent]) {
    switch output {
    case .stream(let continuation): continuation.yield(events)
    case .sink(let sink, _): sink(events)
    }
  }

  /// Ends the transfer's events: cleanly when `error` is `nil`. Only the
  /// first call counts.
  func finish(_ error: MagpieError?) {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    switch output {
    case .stream(let continuation):
      if let error { continuation.finish(throwing: error) } else { continuation.finish() }
    case .sink(_, let end):
      end(error)
    }
  }
}
