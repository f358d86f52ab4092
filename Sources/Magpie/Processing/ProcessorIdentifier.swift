/// Spells processor parameters for identifiers: one spelling per value, so
/// equal parameters give equal identifiers and different ones never meet.
package enum ProcessorIdentifier {
  /// `16` for 16.0, `2.5` for 2.5, `0` for -0.0: the shortest text that
  /// reads back as the same `Double`.
  package static func number(_ value: Double) -> String {
    if value == 0 { return "0" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  /// `WxH`.
  static func size(_ size: PixelSize) -> String { "\(size.width)x\(size.height)" }

  /// `text` with the characters the identifier grammar uses (`%`, `|`,
  /// `(`, `)`, `,`) percent-escaped, so a user's identifier can never read
  /// as two processors or as extra parameters.
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": result += "%25"
      case "|": result += "%7C"
      case "(": result += "%28"
      case ")": result += "%29"
      case ",": result += "%2C"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
