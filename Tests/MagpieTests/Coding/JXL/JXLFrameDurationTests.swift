#if canImport(MagpieJXL)
  import Foundation
  import Magpie
  import Testing

  @testable import MagpieJXL

  /// Frame durations from a file's tick counts and tick rate, whatever
  /// 32-bit values it declares (the fuzzer's input overflowed 64 bits and
  /// trapped; it is replayed from Fixtures/fuzz/jxl by the fuzz
  /// regression tests).
  @Suite struct JXLFrameDurationTests {
    @Test func ordinaryRatesGiveTheirDurations() {
      #expect(JXLHeader.duration(ticks: 1, per: (numerator: 10, denominator: 1)) == .milliseconds(100))
      #expect(JXLHeader.duration(ticks: 3, per: (numerator: 1000, denominator: 1)) == .milliseconds(3))
      #expect(JXLHeader.duration(ticks: 5, per: (numerator: 0, denominator: 1)) == .zero)
    }

    @Test func theLargestDeclaredValuesAreClampedNotTrapped() {
      let huge = JXLHeader.duration(ticks: .max, per: (numerator: 1, denominator: .max))
      #expect(huge == .nanoseconds(Int64.max))
      // Large, but representable: computed exactly.
      let long = JXLHeader.duration(ticks: .max, per: (numerator: .max, denominator: .max))
      #expect(long == .nanoseconds(Int64(UInt32.max) * 1_000_000_000))
    }
  }
#endif
