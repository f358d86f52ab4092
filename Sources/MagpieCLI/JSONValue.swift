import Foundation

/// A JSON value whose objects keep their keys in the order written, so the
/// CLI prints fields in the order the contract lists them.
enum JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
  case string(String)
  case int(Int)
  case double(Double)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([(String, JSONValue)])

  init(stringLiteral value: String) { self = .string(value) }
  init(integerLiteral value: Int) { self = .int(value) }

  /// Compact JSON text on one line.
  var text: String {
    switch self {
    case .string(let s): return Self.quote(s)
    case .int(let i): return String(i)
    case .double(let d):
      guard d.isFinite else { return "null" }
      return String(format: "%.3f", d)
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
    case .object(let fields):
      return "{" + fields.map { Self.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
    }
  }

  private static func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
