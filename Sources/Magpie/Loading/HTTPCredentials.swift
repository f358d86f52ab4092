import Foundation

/// Credentials a loader sends in the `Authorization` header: HTTP basic
/// (user and password) or a bearer token, for one host or for all.
///
/// They are sent with the first request rather than after a `401`
/// challenge: one round trip less, and the same on every platform (Linux's
/// FoundationNetworking answers challenges only for some schemes).
public struct HTTPCredentials: Sendable, Equatable {
  /// The host these credentials are for, compared without case; `nil` for
  /// every host.
  public var host: String?
  /// The `Authorization` header value, e.g. `"Basic dXNlcjpwYXNz"`.
  public var authorization: String

  /// HTTP basic credentials: `user:password`, Base64 in UTF-8.
  public static func basic(user: String, password: String, host: String? = nil) -> HTTPCredentials {
    let token = Data("\(user):\(password)".utf8).base64EncodedString()
    return HTTPCredentials(host: host, authorization: "Basic \(token)")
  }

  /// A bearer token (`Authorization: Bearer TOKEN`). For a token that
  /// changes, use ``RequestModifier/bearerToken(_:)`` instead, which asks
  /// for it on every request.
  public static func bearer(_ token: String, host: String? = nil) -> HTTPCredentials {
    HTTPCredentials(host: host, authorization: "Bearer \(token)")
  }
}
