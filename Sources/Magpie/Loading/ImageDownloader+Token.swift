extension ImageDownloader {
  /// One subscriber's handle: cancel it or change its priority.
  public struct Token: Hashable, Sendable {
    let download: Int
    let subscriber: Int
  }
}
