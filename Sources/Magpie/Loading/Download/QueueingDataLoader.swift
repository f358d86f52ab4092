import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A loader that starts queued transfers itself and reports their ends by
/// callback: handed a ``TransferQueue/Slot``, it joins the line; when the
/// slot is granted (on the thread of the transfer that ended before it) it
/// begins the transfer there; when the transfer ends, `completion` is
/// called on the loader's thread. No task waits or is woken in between.
/// ``CurlDataLoader`` and ``URLSessionDataLoader`` are; for any other
/// loader the downloader awaits the turn and the body on a task.
protocol QueueingDataLoader: DataLoading {
  /// Queues a whole-body load of `request` in `slot`'s line; returns how
  /// to cancel it (waiting or running: `completion` then gets
  /// ``MagpieError/Code/cancelled``). The loader releases the slot when the
  /// load ends. `progress` gets the bytes received and the total
  /// announced on the way (libcurl: at most every 50 ms; URLSession: with
  /// each chunk).
  func enqueueLoad(
    of request: URLRequest, in slot: TransferQueue.Slot, progress: @escaping @Sendable (Int64, Int64?) -> Void,
    completion: @escaping @Sendable (Result<(Data, HTTPURLResponse), MagpieError>) -> Void
  ) -> @Sendable () -> Void
}
