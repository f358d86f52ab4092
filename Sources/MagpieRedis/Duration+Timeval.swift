import Foundation

extension Duration {
  /// The duration as the `timeval` hiredis takes (negative as zero).
  var timeval: timeval {
    let (seconds, attoseconds) = components
    guard seconds >= 0 else { return Glibc.timeval(tv_sec: 0, tv_usec: 0) }
    return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
  }

  /// The duration in whole milliseconds, at least 1 (for `PX`).
  var wholeMilliseconds: Int {
    let (seconds, attoseconds) = components
    return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
  }
}
