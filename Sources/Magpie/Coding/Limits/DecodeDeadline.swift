/// When one image's decode must be finished by
/// (``DecodeOptions/decodeTimeLimit``), checked cooperatively: the coders
/// call ``check(_:)`` at frame boundaries and between bands of rows, so a
/// decode that runs long stops at the next check with
/// ``MagpieError/Code/limitExceeded`` instead of running on.
///
/// A value made when the decode starts (``DecodeOptions/startDeadline()``);
/// checking it reads the clock once, cheap enough for every band of rows.
package struct DecodeDeadline: Sendable {
  /// The limit, `nil` for none (then every check passes without reading
  /// the clock).
  package let limit: Duration?
  private let start: ContinuousClock.Instant
  private let clock: DecodeClock

  /// A deadline `limit` after now on `clock`.
  package init(limit: Duration?, clock: DecodeClock) {
    self.limit = limit
    self.clock = clock
    start = limit == nil ? ContinuousClock.Instant.now : clock.now()
  }

  /// No limit at all.
  package static let none = DecodeDeadline(limit: nil, clock: .continuous)

  /// Throws ``MagpieError/Code/limitExceeded`` once the decode has run for
  /// the limit or longer; `place` says where it stopped (such as
  /// "gif frame 3"). A limit of zero fails at the first check.
  package func check(_ place: @autoclosure () -> String) throws(MagpieError) {
    guard let limit else { return }
    let elapsed = clock.now() - start
    guard elapsed >= limit else { return }
    throw MagpieError(
      .limitExceeded,
      "decode time \(Self.seconds(elapsed)) exceeds decodeTimeLimit \(Self.seconds(limit)) (stopped at \(place()))")
  }

  /// Whether the limit has been reached, for loops that cannot throw (C
  /// callbacks); ``check(_:)`` then says so with the error.
  package var hasPassed: Bool {
    guard let limit else { return false }
    return clock.now() - start >= limit
  }

  /// `duration` in seconds with millisecond precision, such as "10.000 s".
  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    let whole = milliseconds / 1000
    let fraction = String(milliseconds % 1000)
    return "\(whole).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
  }
}

/// The clock a decode's time limit is measured on: the real monotonic
/// clock, or in tests a virtual one that advances as the test says, so the
/// limit is tested without sleeping or timing anything.
package struct DecodeClock: Sendable {
  /// The current instant on this clock.
  package let now: @Sendable () -> ContinuousClock.Instant

  /// A clock reading `now`.
  package init(now: @escaping @Sendable () -> ContinuousClock.Instant) {
    self.now = now
  }

  /// The real monotonic clock (`ContinuousClock`).
  package static let continuous = DecodeClock { ContinuousClock.now }
}
