extension ImageDownloader {
  /// One subscriber: its priority and its callbacks.
  struct Subscriber {
    var priority: DownloadPriority
    var handlers: Handlers
  }
}
