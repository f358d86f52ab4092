import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A change made to a request before it is sent: a header, an auth token,
/// or any other edit of the `URLRequest`, synchronous or `async`.
///
/// Loaders apply their modifiers in order, once per load, to the first
/// request (redirects carry the result over, less what
/// ``HTTPRedirect/proposedRequest`` drops). A modifier that throws fails the
/// load with ``MagpieError/Code/invalidArgument`` (or with the
/// ``MagpieError`` it threw).
///
/// ```swift
/// let configuration = DataLoaderConfiguration(requestModifiers: [
///   .header("Accept", "image/webp,image/*"),
///   .bearerToken { try await tokenStore.currentToken() },
/// ])
/// ```
public struct RequestModifier: Sendable {
  enum Body: Sendable {
    case sync(@Sendable (inout URLRequest) throws -> Void)
    case async(@Sendable (URLRequest) async throws -> URLRequest)
  }

  let body: Body

  /// A synchronous change, made in place.
  public init(_ modify: @escaping @Sendable (inout URLRequest) throws -> Void) {
    body = .sync(modify)
  }

  /// An asynchronous change: gets the request, returns the one to send.
  public init(async modify: @escaping @Sendable (URLRequest) async throws -> URLRequest) {
    body = .async(modify)
  }

  /// Sets one header, replacing a value already there.
  public static func header(_ name: String, _ value: String) -> RequestModifier {
    RequestModifier { $0.setValue(value, forHTTPHeaderField: name) }
  }

  /// Sets several headers, replacing values already there.
  public static func headers(_ fields: [String: String]) -> RequestModifier {
    RequestModifier { request in
      for (name, value) in fields { request.setValue(value, forHTTPHeaderField: name) }
    }
  }

  /// Sets `Authorization: Bearer TOKEN`, asking `token` for the current
  /// token on every load (so a refreshed token is picked up).
  public static func bearerToken(_ token: @escaping @Sendable () async throws -> String) -> RequestModifier {
    RequestModifier(async: { request in
      var request = request
      request.setValue("Bearer \(try await token())", forHTTPHeaderField: "Authorization")
      return request
    })
  }

  /// Whether this modifier can run without suspending.
  var isSynchronous: Bool {
    if case .sync = body { return true }
    return false
  }

  /// Applies the change to `request`.
  public func modify(_ request: URLRequest) async throws -> URLRequest {
    switch body {
    case .sync(let change):
      var request = request
      try change(&request)
      return request
    case .async(let change):
      return try await change(request)
    }
  }
}
