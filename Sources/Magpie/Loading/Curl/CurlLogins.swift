import CCurl
import Foundation

/// The logins a ``CurlDataLoader``'s challenge handler gave, by host and
/// port, and the libcurl options that answer a server's challenge with
/// them.
final class CurlLogins: Sendable {
  private let logins = Lock<[String: HTTPLogin]>([:])
  private let handler: @Sendable (HTTPAuthenticationChallenge) async -> HTTPLogin?
  /// The schemes libcurl may answer in: Basic and Digest, and Negotiate
  /// when this libcurl has SPNEGO. More than one, so libcurl first asks
  /// without a login and answers the scheme the server picks.
  static let schemes: Int = {
    var schemes = magpie_curlauth_basic | magpie_curlauth_digest
    if magpie_curl_has_spnego() != 0 { schemes |= magpie_curlauth_negotiate }
    return schemes
  }()

  /// Logins asked of `handler`.
  init(handler: @escaping @Sendable (HTTPAuthenticationChallenge) async -> HTTPLogin?) {
    self.handler = handler
  }

  /// The login kept for `url`'s host and port.
  func login(for url: URL) -> HTTPLogin? {
    let origin = HTTPAuthenticationChallenge.origin(of: url)
    return logins.withLock { $0[origin] }
  }

  /// Whether libcurl can answer a challenge offering `schemes`.
  static func canAnswer(_ schemes: [String]) -> Bool {
    let negotiates = Self.schemes & magpie_curlauth_negotiate != 0
    return schemes.contains { $0 == "basic" || $0 == "digest" || ($0 == "negotiate" && negotiates) }
  }

  /// Asks the handler about `challenge`; keeps and reports a login given.
  func answer(_ challenge: HTTPAuthenticationChallenge) async -> Bool {
    guard let login = await handler(challenge) else { return false }
    logins.withLock { $0[challenge.origin] = login }
    return true
  }

  /// Sets `easy` to answer challenges with `login`, or (with `nil`) not.
  static func configure(_ easy: UnsafeMutableRawPointer, login: HTTPLogin?) -> CURLcode {
    var code = magpie_curl_setopt_string(easy, CURLOPT_USERNAME, login?.user)
    if code == CURLE_OK { code = magpie_curl_setopt_string(easy, CURLOPT_PASSWORD, login?.password) }
    if code == CURLE_OK {
      code = magpie_curl_setopt_long(easy, CURLOPT_HTTPAUTH, login == nil ? magpie_curlauth_basic : schemes)
    }
    return code
  }
}

/// A `401` whose challenge the downloader may answer: the underlying
/// error of that failure.
struct ChallengeFailure: Error, Sendable, CustomStringConvertible {
  let challenge: HTTPAuthenticationChallenge
  var description: String { "challenge: \(challenge.schemes.joined(separator: ", "))" }
}
