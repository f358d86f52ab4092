import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The request a redirect leads to, by the rules of RFC 9110 section 15.4,
/// shared by both loaders so they follow redirects the same way.
enum RedirectRules {
  /// Whether `status` is a redirect a loader follows.
  static func isRedirect(_ status: Int) -> Bool {
    [301, 302, 303, 307, 308].contains(status)
  }

  /// The next request after `response` to `request`, or `nil` when the
  /// response is not a redirect or has no usable `Location`. Fails when the
  /// `Location` leaves http and https.
  static func nextRequest(after response: HTTPURLResponse, to request: URLRequest) -> Result<URLRequest, MagpieError>? {
    guard isRedirect(response.statusCode),
      let location = response.value(forHTTPHeaderField: "Location"), !location.isEmpty,
      let base = response.url ?? request.url,
      let target = URL(string: location, relativeTo: base)?.absoluteURL
    else { return nil }
    let scheme = target.scheme?.lowercased()
    guard scheme == "http" || scheme == "https", target.host != nil else {
      return .failure(
        MagpieError(
          .invalidResponse,
          "a \(response.statusCode) redirect from \(base.redactedDescription) points to \(target.redactedDescription), not an http(s) URL",
          refusal: .redirectScheme))
    }
    var next = request
    next.url = target
    let method = request.httpMethod?.uppercased() ?? "GET"
    if response.statusCode == 303 && method != "HEAD"
      || (response.statusCode == 301 || response.statusCode == 302) && method == "POST"
    {
      next.httpMethod = "GET"
      next.httpBody = nil
      next.setValue(nil, forHTTPHeaderField: "Content-Type")
      next.setValue(nil, forHTTPHeaderField: "Content-Length")
    }
    if !sameOrigin(base, target) {
      // Credentials for one origin must never reach another.
      next.setValue(nil, forHTTPHeaderField: "Authorization")
      next.setValue(nil, forHTTPHeaderField: "Cookie")
    }
    return .success(next)
  }

  /// Same scheme, host and port (default ports filled in).
  static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
    func port(_ url: URL) -> Int? { url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80) }
    return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
      && port(a) == port(b)
  }
}
