import Foundation

/// One response: a status, header fields in order, and the body
/// (`Content-Length` and `Date` are added by the server).
public struct HTTPResponse: Sendable {
  /// The status code.
  public var status: Int
  /// Header fields, sent in this order.
  public var headers: [(name: String, value: String)]
  /// The body; a `HEAD` request gets the headers of the same response and
  /// no body.
  public var body: Data

  /// A response with these parts.
  public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A short plain-text answer: `reason` and a newline, not cached.
  public static func text(_ status: Int, _ reason: String, headers: [(name: String, value: String)] = []) -> Self {
    HTTPResponse(
      status: status,
      headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")] + headers,
      body: Data((reason + "\n").utf8))
  }

  /// The value of the first header named `name` (any case), or `nil`.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }
}
