import Foundation

@testable import Magpie

/// A ``DecodeClock`` for the time-limit tests: each reading returns the
/// instant `step` after the previous one (the first is the origin), so a
/// decode "takes" as long as the number of times it looks at the clock, and
/// nothing is timed or slept.
final class VirtualDecodeClock: Sendable {
  private let readings = Locked(0)
  private let origin = ContinuousClock.now
  private let step: Duration
  /// Readings before this many return the origin (time stands still).
  private let stillReadings: Int

  /// A clock that advances `step` per reading once `stillReadings`
  /// readings have passed.
  init(step: Duration, stillReadings: Int = 1) {
    self.step = step
    self.stillReadings = stillReadings
  }

  /// How many times the clock was read.
  var readingCount: Int { readings.value }

  /// The clock as a decode reads it.
  var clock: DecodeClock {
    DecodeClock { [self] in
      let n = readings.withLock { count -> Int in
        count += 1
        return count
      }
      return origin + step * max(0, n - stillReadings)
    }
  }
}
