/// Why a transform URL was refused: an HTTP status and a short reason for
/// the response body that names the option (or part of the path) and what
/// is wrong with it.
public struct TransformURLError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of refusal it is; decides ``status``.
  public enum Kind: Sendable, Hashable {
    /// A malformed or out-of-range option, format or source URL (400).
    case badRequest
    /// A missing, wrong or unexpected signature (403).
    case forbidden
    /// A path longer than ``TransformURLLimits/maximumPathLength`` (414).
    case pathTooLong
    /// The server's own configuration (a preset, a key) is wrong (500):
    /// reported at start-up, never caused by a request.
    case configuration
  }

  /// The kind of refusal.
  public let kind: Kind
  /// One line, e.g. `quality: 101 is outside 1-100`.
  public let reason: String

  /// An error of `kind` saying `reason`.
  public init(_ kind: Kind, _ reason: String) {
    self.kind = kind
    self.reason = reason
  }

  /// The HTTP status to answer with.
  public var status: Int {
    switch kind {
    case .badRequest: 400
    case .forbidden: 403
    case .pathTooLong: 414
    case .configuration: 500
    }
  }

  /// `STATUS: reason`.
  public var description: String { "\(status): \(reason)" }

  /// A 400 for option `name`.
  static func option(_ name: String, _ why: String) -> TransformURLError {
    TransformURLError(.badRequest, "\(name): \(why)")
  }
}
