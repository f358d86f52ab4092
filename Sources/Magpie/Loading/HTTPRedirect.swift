import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One redirect a loader is about to follow, as shown to a redirect handler.
public struct HTTPRedirect: Sendable {
  /// The `3xx` response that asks for the redirect.
  public var response: HTTPURLResponse
  /// The request the loader would send next: the `Location` resolved against
  /// the current URL; a `303` (or `301`/`302` after a `POST`) turned into a
  /// `GET`; the `Authorization` and `Cookie` headers dropped when the host,
  /// port or scheme changes.
  public var proposedRequest: URLRequest
  /// The request that started the load, after request modifiers.
  public var originalRequest: URLRequest
  /// Which redirect of this load this is: 1 for the first.
  public var number: Int

  /// Creates a redirect description.
  public init(response: HTTPURLResponse, proposedRequest: URLRequest, originalRequest: URLRequest, number: Int) {
    self.response = response
    self.proposedRequest = proposedRequest
    self.originalRequest = originalRequest
    self.number = number
  }
}

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
