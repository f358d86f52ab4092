import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Looks at an HTTP response's status and headers once its body has
/// arrived, before the body is transformed, decoded or cached
/// (SDWebImage's `SDWebImageDownloaderResponseModifier`, Kingfisher's
/// `ImageDownloaderDelegate` response check): returns it as it is, or
/// with headers rewritten (the validators and HTTP caching rules stored
/// with the image are read from what it returns), or throws to refuse it,
/// and the load fails with that error.
///
/// Set per manager (``ImageManager/Configuration/responseModifiers``) and
/// per request (``ImageRequest/responseModifiers``, after the manager's).
/// The ``identifier`` names what it does: loads whose hooks differ share
/// no download result, so two modifiers that act differently need
/// different identifiers. Responses the loader already refused (a 404, a
/// body that is not an image) never reach it; a `304` to a revalidation
/// does.
///
/// ```swift
/// let onlyOurCDN = ResponseModifier("only-cdn") { response throws(MagpieError) in
///   guard response.value(forHTTPHeaderField: "X-Served-By")?.hasPrefix("cdn-") == true else {
///     throw MagpieError(.invalidResponse, "not served by our CDN")
///   }
///   return response
/// }
/// ```
public struct ResponseModifier: Sendable {
  /// Names what it does (part of the shared-work key).
  public let identifier: String
  let body: @Sendable (HTTPURLResponse) async throws(MagpieError) -> HTTPURLResponse

  /// A modifier named `identifier` that returns the response to use, or
  /// throws to refuse it.
  public init(
    _ identifier: String, _ modify: @escaping @Sendable (HTTPURLResponse) async throws(MagpieError) -> HTTPURLResponse
  ) {
    self.identifier = identifier
    body = modify
  }

  /// Sets header `name` to `value` (a `nil` value removes it): to give
  /// an origin's images the cache lifetime it forgot, for example.
  public static func setHeader(_ name: String, _ value: String?) -> ResponseModifier {
    ResponseModifier("setHeader(\(name)=\(value ?? "nil"))") { response throws(MagpieError) in
      var fields = response.allHeaderFields as? [String: String] ?? [:]
      for key in fields.keys where key.caseInsensitiveCompare(name) == .orderedSame { fields[key] = nil }
      if let value { fields[name] = value }
      guard
        let url = response.url,
        let rewritten = HTTPURLResponse(
          url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: fields)
      else { throw MagpieError(.invalidResponse, "the response could not be rebuilt with header \(name)") }
      return rewritten
    }
  }

  /// Refuses responses whose `Content-Type` does not start with one of
  /// `types` (`image/` and `image/webp`, say).
  public static func requireContentType(_ types: [String]) -> ResponseModifier {
    ResponseModifier("requireContentType(\(types.joined(separator: ",")))") { response throws(MagpieError) in
      let type = response.value(forHTTPHeaderField: "Content-Type")?.lowercased() ?? ""
      guard types.contains(where: { type.hasPrefix($0.lowercased()) }) else {
        throw MagpieError(
          .invalidResponse, "the response's Content-Type \"\(type)\" is not one of \(types.joined(separator: ", "))",
          statusCode: response.statusCode)
      }
      return response
    }
  }

  /// Applies the change to `response`.
  public func modify(_ response: HTTPURLResponse) async throws(MagpieError) -> HTTPURLResponse {
    try await body(response)
  }
}
