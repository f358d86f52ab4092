import Foundation
import Testing

@testable import Magpie

/// The deadline value behind `DecodeOptions.decodeTimeLimit`, on a virtual
/// clock: no sleeps, no timing.
@Suite struct DecodeDeadlineTests {
  @Test func theDefaultIsTenSeconds() {
    // Ten minutes in the sanitizer builds (DecodeOptions+Limits.swift).
    #if MAGPIE_SANITIZED
      let expected = Duration.seconds(600)
    #else
      let expected = Duration.seconds(10)
    #endif
    #expect(DecodeOptions().decodeTimeLimit == expected)
    #expect(DecodeOptions.defaultDecodeTimeLimit == expected)
  }

  @Test func aLimitOfZeroFailsAtTheFirstCheck() {
    let deadline = DecodeDeadline(limit: .zero, clock: .continuous)
    #expect(deadline.hasPassed)
    #expect {
      try deadline.check("the first check")
    } throws: { error in
      let error = error as? MagpieError
      return error?.code == .limitExceeded && error?.reason.contains("exceeds decodeTimeLimit 0.000 s") == true
        && error?.reason.hasSuffix("(stopped at the first check)") == true
    }
  }

  @Test func noLimitNeverReadsTheClock() throws {
    let virtual = VirtualDecodeClock(step: .seconds(3600))
    let deadline = DecodeDeadline(limit: nil, clock: virtual.clock)
    for _ in 0..<3 { try deadline.check("anywhere") }
    #expect(!deadline.hasPassed)
    #expect(virtual.readingCount == 0)
  }

  /// One second a reading, a 2.5 s limit: readings at 1 s and 2 s pass,
  /// the one at 3 s fails and names both times.
  @Test func failsOnceTheLimitHasPassedNamingTimeAndLimit() throws {
    let virtual = VirtualDecodeClock(step: .seconds(1))
    let deadline = DecodeDeadline(limit: .milliseconds(2500), clock: virtual.clock)
    try deadline.check("frame 1")
    try deadline.check("frame 2")
    do {
      try deadline.check("frame 3")
      Issue.record("the third check passed")
    } catch {
      #expect(error.code == .limitExceeded)
      #expect(error.reason == "decode time 3.000 s exceeds decodeTimeLimit 2.500 s (stopped at frame 3)")
    }
  }

  @Test func secondsAreWrittenToTheMillisecond() {
    #expect(DecodeDeadline.seconds(.milliseconds(10_007)) == "10.007 s")
    #expect(DecodeDeadline.seconds(.microseconds(1500)) == "0.001 s")
    #expect(DecodeDeadline.seconds(.seconds(90)) == "90.000 s")
  }
}
