/// Why a source URL is not fetched, with the status the client gets.
public struct SourceRefusal: Error, Sendable, Equatable {
  /// 400 for a malformed source, 403 for one outside the policy, 404 for
  /// a host that does not resolve.
  public var status: Int
  /// One line for the response body and the log.
  public var reason: String

  /// A refusal with this status and reason.
  public init(status: Int, reason: String) {
    self.status = status
    self.reason = reason
  }
}
