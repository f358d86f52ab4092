import Dispatch

/// A load's two time limits on the monotonic clock: idle (since the last
/// byte or the start) and total (since the start).
struct TransferDeadline: Sendable {
  private let idleNanoseconds: UInt64
  private let totalNanoseconds: UInt64
  private let start: UInt64
  private var lastActivity: UInt64

  init(idle: Duration, total: Duration, now: UInt64 = TransferDeadline.now()) {
    idleNanoseconds = Self.nanoseconds(idle)
    totalNanoseconds = Self.nanoseconds(total)
    start = now
    lastActivity = now
  }

  /// Monotonic nanoseconds.
  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// Records progress: bytes arrived, or a redirect was taken.
  mutating func touch(now: UInt64 = TransferDeadline.now()) {
    lastActivity = now
  }

  /// When the next limit runs out, in monotonic nanoseconds.
  var nextExpiry: UInt64 {
    min(lastActivity &+ idleNanoseconds, start &+ totalNanoseconds)
  }

  /// The error for a limit that has run out at `now`, or `nil`.
  func expired(now: UInt64 = TransferDeadline.now()) -> MagpieError? {
    if now >= start &+ totalNanoseconds {
      return MagpieError(
        .timedOut, "the load took longer than its \(Self.describe(totalNanoseconds)) limit (resourceTimeout)")
    }
    if now >= lastActivity &+ idleNanoseconds {
      return MagpieError(
        .timedOut, "the server sent nothing for \(Self.describe(idleNanoseconds)) (timeout)")
    }
    return nil
  }

  private static func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0 else { return 0 }
    let (product, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? UInt64.max / 2 : product + UInt64(attoseconds / 1_000_000_000)
  }

  private static func describe(_ nanoseconds: UInt64) -> String {
    let milliseconds = nanoseconds / 1_000_000
    return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
  }
}
