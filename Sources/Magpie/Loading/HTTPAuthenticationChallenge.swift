import Foundation

/// A server's `401 Unauthorized` and what it asked for: handed to
/// ``DataLoaderConfiguration/challengeHandler``, which answers with a
/// login or declines (Kingfisher's `AuthenticationChallengeResponsible`,
/// URLSession's authentication challenge).
public struct HTTPAuthenticationChallenge: Sendable, Equatable {
  /// The URL that answered 401.
  public let url: URL
  /// Its host and port (`host` or `host:port`): the login given is kept
  /// for it.
  public let origin: String
  /// The schemes offered, lowercased, in the server's order (`basic`,
  /// `digest`, `negotiate`, ...).
  public let schemes: [String]
  /// The first `realm` named, if any.
  public let realm: String?

  /// The challenge in `fields` (the `WWW-Authenticate` values) from `url`.
  init(url: URL, fields: [String]) {
    self.url = url
    origin = Self.origin(of: url)
    schemes = fields.compactMap { $0.split(separator: " ", maxSplits: 1).first.map { $0.lowercased() } }
    realm = fields.lazy.compactMap(Self.realm(in:)).first
  }

  /// `host` or `host:port` of `url`, lowercased.
  static func origin(of url: URL?) -> String {
    let host = url?.host?.lowercased() ?? ""
    return url?.port.map { "\(host):\($0)" } ?? host
  }

  private static func realm(in field: String) -> String? {
    guard let range = field.range(of: "realm=", options: .caseInsensitive) else { return nil }
    let rest = field[range.upperBound...]
    if rest.first == "\"" { return rest.dropFirst().split(separator: "\"", maxSplits: 1).first.map(String.init) }
    return rest.split(separator: ",", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
  }
}
