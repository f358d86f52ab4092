import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ImageDownloader {
  /// One transfer and the subscribers waiting on it.
  struct Download {
    var key: String
    var request: URLRequest
    var subscribers: [Int: Subscriber] = [:]
    var task: Task<Void, Never>?
    var enqueued: ContinuousClock.Instant
    var started: ContinuousClock.Instant?
    var received: Int64 = 0
    var expected: Int64?

    var priority: ImageRequest.Priority { subscribers.values.map(\.priority).max() ?? .normal }
  }
}
