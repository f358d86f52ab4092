import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Downloads image data: the pipeline's download stage over a
/// ``DataLoading``. At most N transfers run at once (6 by default),
/// highest priority first; identical requests share one transfer with
/// many subscribers; transient failures are retried with backoff
/// (SDWebImageDownloader, Nuke's data loading stage).
///
/// The sharing rules are the pipeline's own (`PipelineStage`): each
/// subscriber gets its own progress and outcome, a transfer waits at the
/// highest priority among its subscribers, and it is cancelled (its
/// connection closed) when its last subscriber leaves. Await
/// ``data(for:priority:progress:)``; ``download(_:priority:handlers:)`` is
/// the callback form of the same subscription.
public final class ImageDownloader: Sendable {
  /// The configuration in force.
  public let configuration: Configuration
  /// The line transfers wait in for a slot.
  let queue: TransferQueue
  /// Transfers in flight, by ``TransferKey``.
  let transfers: StageTable<TransferKey, Response>
  let clock = ContinuousClock()
  /// Bodies of failed transfers kept for resuming, by URL.
  let resumables = ResumableDataStore()

  /// A downloader with `configuration`.
  public init(configuration: Configuration) {
    self.configuration = configuration
    let order: WorkQueue.Order = configuration.executionOrder == .fifo ? .fifo : .lifo
    queue = TransferQueue(
      maximumRunning: configuration.maximumConcurrentDownloads, order: order, observer: configuration.engineObserver,
      gate: configuration.rateLimit.map { StartGate($0, clock: configuration.rateClock) })
    transfers = StageTable(kind: .download, observer: configuration.engineObserver)
  }

  /// The body of `request`, downloaded (or joined) and awaited. Cancelling
  /// the calling task cancels this subscription only; `progress` gets the
  /// bytes received and the total announced.
  public func data(
    for request: URLRequest, priority: ImageRequest.Priority = .normal,
    progress: (@Sendable (Int64, Int64?) -> Void)? = nil
  ) async throws(MagpieError) -> Response {
    let observer = progress.map { progress in
      StageObserver.call { event in
        if case .progress(let received, let expected) = event { progress(received, expected) }
      }
    }
    return try await subscribe(request, priority: priority, observer: observer).value()
  }

  /// Joins the transfer of `request`, or starts one (joining the line for
  /// a slot now, in the order of the calls); `key` is its ``TransferKey``,
  /// when the caller built it already. `wantsData` asks for the
  /// bytes so far with each chunk; `completion`, when given, gets the
  /// outcome without a task waiting for it.
  func subscribe(
    _ request: URLRequest, key: TransferKey? = nil, priority: ImageRequest.Priority, wantsData: Bool = false,
    observer: StageObserver?,
    completion: PipelineStage<Response>.Completion? = nil
  ) -> StageSubscription<Response> {
    transfers.subscribe(
      key: key ?? TransferKey(request), priority: priority, observer: observer, wantsData: wantsData,
      completion: completion
    ) { [self] stage in
      // Over a loader that starts queued transfers itself, its thread
      // starts each attempt and reports its end: no task.
      let loader = wantsData ? nil : configuration.dataLoader as? any QueueingDataLoader
      stage.start(driving: { QueuedDownload(request, queueingLoader: loader, downloader: self, stage: $0).begin() })
    }
  }

  /// Transfers allowed at once now: the configuration's limit, or the
  /// last one set by ``setMaximumConcurrentDownloads(_:)``.
  public var maximumConcurrentDownloads: Int { queue.maximumRunning }

  /// Changes how many transfers run at once (at least 1). Raising it starts
  /// waiting transfers now; lowering it stops none that run, it only starts
  /// fewer. An ``ImageManager`` sets this from its
  /// ``ImageManager/Concurrency/downloads``.
  public func setMaximumConcurrentDownloads(_ limit: Int) {
    queue.setMaximumRunning(limit)
  }

  /// The number of transfers running now.
  public var runningCount: Int { queue.runningCount }
}
