extension ImageDownloader {
  /// One subscriber: its priority and its callbacks.
  struct Subscriber {
    var priority: ImageRequest.Priority
    var handlers: Handlers
  }
}
