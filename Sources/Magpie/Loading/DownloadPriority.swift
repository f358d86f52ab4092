/// How urgently a download (or an image task) should start when it has to
/// wait for a free slot.
public enum DownloadPriority: Int, Sendable, Comparable, CaseIterable {
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
  public static func < (lhs: DownloadPriority, rhs: DownloadPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
