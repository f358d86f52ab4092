extension ImagePrefetcher {
  /// Which requests a prefetcher finished, skipped (already cached) and
  /// failed (stopped and cancelled ones included), in the order they
  /// ended: the most recent 1,024 of each (``Progress`` keeps the exact
  /// counts), so a prefetcher that lives as long as the app holds a
  /// bounded list.
  public struct Report: Sendable {
    /// Loaded into the caches.
    public var finished: [ImageRequest] = []
    /// Already cached: nothing to do.
    public var skipped: [ImageRequest] = []
    /// Failed, stopped or cancelled.
    public var failed: [ImageRequest] = []
  }
}
