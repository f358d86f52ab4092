extension ImageDownloader {
  /// The queue and the downloads in flight, behind the lock.
  struct State {
    var queue: WorkQueue
    var downloads: [Int: Download] = [:]
    var byKey: [String: Int] = [:]
    var nextID = 0
  }
}
