import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a redirect handler decides about one redirect.
public enum RedirectDecision: Sendable {
  /// Follow it with the request the loader proposed.
  case follow
  /// Follow it with this request instead (another URL, other headers).
  case followModified(URLRequest)
  /// Do not follow: the load fails with ``MagpieError/Code/httpStatus`` and
  /// the redirect's status code.
  case refuse
}
