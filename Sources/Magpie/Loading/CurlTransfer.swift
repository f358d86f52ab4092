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
  /// The stream's producer end.
  let continuation: Continuation
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
    configuration: DataLoaderConfiguration, continuation: Continuation, collectsBody: Bool = false,
    reportsProgress: Bool = false
  ) {
    id = Self.identifiers.add(1, ordering: .relaxed).newValue
    self.configuration = configuration
    self.continuation = continuation
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

  /// Ends the stream: cleanly when `error` is `nil`.
  func finish(_ error: MagpieError?) {
    if let error { continuation.finish(throwing: error) } else { continuation.finish() }
  }
}
