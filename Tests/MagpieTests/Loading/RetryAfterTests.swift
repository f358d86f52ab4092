import Foundation
import Testing

@testable import Magpie

@Suite("Retry-After parsing")
struct RetryAfterTests {
  let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT

  @Test("Delay-seconds")
  func seconds() {
    #expect(RetryAfter.parse("120", now: now) == .seconds(120))
    #expect(RetryAfter.parse(" 0 ", now: now) == .zero)
    #expect(RetryAfter.parse("99999999999999999999", now: now) != nil)
  }

  @Test("The three HTTP-date forms, relative to now")
  func dates() {
    #expect(RetryAfter.parse("Wed, 21 Oct 2015 07:30:00 GMT", now: now) == .seconds(120))
    #expect(RetryAfter.parse("Wednesday, 21-Oct-15 07:29:00 GMT", now: now) == .seconds(60))
    #expect(RetryAfter.parse("Wed Oct 21 07:28:30 2015", now: now) == .seconds(30))
  }

  @Test("A date in the past means now")
  func past() {
    #expect(RetryAfter.parse("Tue, 20 Oct 2015 07:28:00 GMT", now: now) == .zero)
  }

  @Test("Anything else is no value")
  func garbage() {
    #expect(RetryAfter.parse("", now: now) == nil)
    #expect(RetryAfter.parse("soon", now: now) == nil)
    #expect(RetryAfter.parse("-5", now: now) == nil)
    #expect(RetryAfter.parse("1.5", now: now) == nil)
  }

  @Test("A date with non-ASCII text is no value, not a trap in DateFormatter")
  func nonASCII() {
    // The http-head fuzz harness's input (Fixtures/fuzz/http-head): a
    // combining mark inside the year made Foundation's DateFormatter trap.
    #expect(RetryAfter.parse("Wed, 20 Oct 2\u{0317}5 07:28:00 GMT", now: now) == nil)
    #expect(RetryAfter.parse("W\u{00E9}d, 21 Oct 2015 07:28:00 GMT", now: now) == nil)
  }
}
