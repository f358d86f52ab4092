extension ImageRequest {
  /// How urgently a request's work should start when it has to wait for a
  /// free slot. It orders every stage: downloads, decodes and processing.
  /// Shared work runs at the highest priority among the requests waiting
  /// for it, and follows their changes while it waits.
  public enum Priority: Int, Sendable, Comparable, CaseIterable {
    /// Prefetching far ahead.
    case veryLow = -2
    /// Prefetching.
    case low = -1
    /// A normal load.
    case normal = 0
    /// A load the user is waiting for.
    case high = 1
    /// A load the user is waiting for right now.
    case veryHigh = 2

    /// Orders priorities from `veryLow` to `veryHigh`.
    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
  }
}
