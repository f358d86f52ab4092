/// Why the server could not start or serve: one line for the operator.
public struct ServeError: Error, Sendable, CustomStringConvertible {
  /// What failed and why.
  public var reason: String

  /// An error saying `reason`.
  public init(_ reason: String) { self.reason = reason }

  /// The reason.
  public var description: String { reason }
}
