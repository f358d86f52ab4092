/// One request as the server received it: the method, the path exactly as
/// the client sent it (no percent-decoding; the query string cut off), and
/// the header fields.
public struct HTTPRequest: Sendable {
  /// `GET`, `HEAD`, …
  public var method: String
  /// The path, percent-escapes kept.
  public var path: String
  /// Header fields by lower-cased name; repeated fields joined with `, `.
  public var headers: [String: String]

  /// A request with these parts; header names are lower-cased.
  public init(method: String, path: String, headers: [String: String] = [:]) {
    self.method = method
    self.path = path
    var lowered: [String: String] = [:]
    for (name, value) in headers {
      let key = name.lowercased()
      lowered[key] = lowered[key].map { "\($0), \(value)" } ?? value
    }
    self.headers = lowered
  }

  /// The value of header `name` (any case), or `nil`.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
