import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a ``CurlDataLoader`` load shares between the consumer's side (the
/// stream or the waiting task, cancellation) and the loader's libcurl
/// thread, which does all the work and alone ends the load once it has
/// been handed to it.
final class CurlTransfer: Sendable {
  typealias Continuation = AsyncThrowingStream<[CurlEvent], any Error>.Continuation

  /// Where events go.
  enum Delivery: Sendable {
    /// To a stream (``CurlDataLoader/load(_:)``, or a whole body with
    /// progress reports).
    case stream(Continuation)
    /// Gathered and handed over at the end (a whole body, no progress).
    case whole(CurlWholeBodyDelivery)
  }

  private static let identifiers = Atomic<Int>(0)

  /// Unique among the loads of this process.
  let id: Int
  /// Where events go.
  let delivery: Delivery
  /// The loader's settings.
  let configuration: DataLoaderConfiguration
  /// Whether the libcurl thread collects the whole body and yields once,
  /// at the end (``CurlDataLoader/data(for:progress:)``), instead of each
  /// chunk.
  let collectsBody: Bool
  /// Whether a collecting transfer also yields its progress, at most every
  /// ``CurlActiveTransfer/progressInterval``.
  let reportsProgress: Bool
  private let cancelled = Atomic<Bool>(false)
  private let preparation = Lock<Task<Void, Never>?>(nil)

  init(
    configuration: DataLoaderConfiguration, delivery: Delivery, collectsBody: Bool = false,
    reportsProgress: Bool = false
  ) {
    id = Self.identifiers.add(1, ordering: .relaxed).newValue
    self.configuration = configuration
    self.delivery = delivery
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

  /// Hands `events` on (libcurl thread).
  func yield(_ events: [CurlEvent]) {
    switch delivery {
    case .stream(let continuation): continuation.yield(events)
    case .whole(let whole): whole.append(events)
    }
  }

  /// Ends the load: cleanly when `error` is `nil`.
  func finish(_ error: MagpieError?) {
    switch delivery {
    case .stream(let continuation):
      if let error { continuation.finish(throwing: error) } else { continuation.finish() }
    case .whole(let whole):
      whole.finish(error)
    }
  }
}
