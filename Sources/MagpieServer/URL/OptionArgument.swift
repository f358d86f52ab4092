/// Readers of one option argument, strict about what they accept: a URL
/// is a cache key, so only plain decimal spellings are taken (no `+`, no
/// hex, no `nan` or `inf`), each checked against its range.
enum OptionArgument {
  /// The longest number spelling read, far more than any valid value needs.
  private static let maximumNumberLength = 40

  /// A whole number in `range`, written as decimal digits with a `-` only
  /// where the range allows negatives.
  static func integer(
    _ text: String, option name: String, in range: ClosedRange<Int>
  ) throws(TransformURLError) -> Int {
    let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
    guard text.utf8.count <= maximumNumberLength, !digits.isEmpty, digits.allSatisfy(isDigit) else {
      throw .option(name, "`\(text.prefix(40))` is not a whole number")
    }
    guard let value = Int(text), range.contains(value) else {
      throw .option(name, "\(text) is outside \(range.lowerBound)-\(range.upperBound)")
    }
    return value
  }

  /// A decimal number in `range` (above its lower bound too when
  /// `excludingLowerBound`): digits with an optional `-`, `.` and
  /// exponent, as Swift prints a `Double`.
  static func number(
    _ text: String, option name: String, in range: ClosedRange<Double>, excludingLowerBound: Bool = false
  ) throws(TransformURLError) -> Double {
    guard text.utf8.count <= maximumNumberLength, isDecimal(Array(text.utf8)), let value = Double(text) else {
      throw .option(name, "`\(text.prefix(40))` is not a number")
    }
    guard range.contains(value), !(excludingLowerBound && value == range.lowerBound) else {
      let low = excludingLowerBound ? "above \(format(range.lowerBound))" : "from \(format(range.lowerBound))"
      throw .option(name, "\(text) must be \(low) to \(format(range.upperBound))")
    }
    // -0 reads as 0: one value, one spelling in the canonical string.
    return value == 0 ? 0 : value
  }

  /// A boolean as imgproxy (Go's `strconv.ParseBool`) reads one.
  static func bool(_ text: String, option name: String) throws(TransformURLError) -> Bool {
    switch text {
    case "1", "t", "T", "true", "TRUE", "True": return true
    case "0", "f", "F", "false", "FALSE", "False": return false
    default: throw .option(name, "`\(text.prefix(40))` is not a boolean (1, t, true, 0, f, false)")
    }
  }

  /// `value` as the canonical string writes it: whole numbers without a
  /// fraction, others in Swift's shortest round-tripping form.
  static func format(_ value: Double) -> String {
    if value == 0 { return "0" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return String(value)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// Whether `bytes` is `-?(D+(.D*)?|.D+)([eE][-+]?D+)?` with D a digit.
  private static func isDecimal(_ bytes: [UInt8]) -> Bool {
    var index = 0
    func digits() -> Int {
      let start = index
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      return index - start
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    var mantissa = digits()
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      mantissa += digits()
    }
    guard mantissa > 0 else { return false }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
      guard digits() > 0 else { return false }
    }
    return index == bytes.count
  }
}
