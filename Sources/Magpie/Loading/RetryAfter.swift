import Foundation

/// Reads a `Retry-After` header: delay-seconds (`"120"`) or an HTTP-date
/// (`"Wed, 21 Oct 2015 07:28:00 GMT"`, or the obsolete RFC 850 and asctime
/// forms), as RFC 9110 section 10.2.3 defines it.
package enum RetryAfter {
  /// The wait the header asks for, never negative; `nil` when the value is
  /// neither form.
  package static func parse(_ value: String, now: Date = Date()) -> Duration? {
    let text = value.trimmingCharacters(in: .whitespaces)
    if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
      // A huge number of seconds is a server asking for "never soon": clamp.
      return .seconds(Int64(text.prefix(12)) ?? Int64.max / 2)
    }
    guard let date = httpDate(text) else { return nil }
    let seconds = date.timeIntervalSince(now)
    return seconds > 0 ? .milliseconds(Int64((seconds * 1000).rounded())) : .zero
  }

  /// An HTTP-date in any of its three forms, always GMT.
  static func httpDate(_ text: String) -> Date? {
    // HTTP-dates are ASCII (RFC 9110 5.6.7); Foundation's DateFormatter
    // traps on some other text (a combining mark in the year, found by the
    // http-head fuzz harness), so anything else is no date.
    guard text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
    for format in formats {
      if let date = format.date(from: text) { return date }
    }
    return nil
  }

  // DateFormatter is thread-safe for date(from:) once configured; these are
  // never changed after creation.
  private static let formats: [DateFormatter] = [
    "EEE, dd MMM yyyy HH:mm:ss 'GMT'",  // IMF-fixdate
    "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",  // RFC 850
    "EEE MMM d HH:mm:ss yyyy",  // asctime
  ].map { pattern in
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = pattern
    return formatter
  }
}
