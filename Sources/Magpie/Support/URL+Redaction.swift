import Foundation

extension URL {
  /// The URL as error messages and logs show it: scheme, host, port and
  /// path, without user name, password or fragment, and with any query
  /// replaced by `?…`. Queries and userinfo carry tokens, signatures and
  /// passwords, which must never reach a log that a user pastes into a bug
  /// report; the path stays, as it says which image failed.
  package var redactedDescription: String {
    guard let components = URLComponents(url: self, resolvingAgainstBaseURL: true), let scheme = components.scheme
    else {
      // Not parseable into parts: show none of it rather than guess
      // where its secrets are.
      return "a URL that cannot be shown"
    }
    var text = scheme + ":"
    if let host = components.host {
      text += "//" + host
      if let port = components.port { text += ":\(port)" }
    }
    text += components.percentEncodedPath
    if components.percentEncodedQuery != nil { text += "?…" }
    return text
  }
}

extension Optional where Wrapped == URL {
  /// ``Foundation/URL/redactedDescription``, or `fallback` when there is no
  /// URL.
  package func redactedDescription(or fallback: String) -> String {
    self?.redactedDescription ?? fallback
  }
}
