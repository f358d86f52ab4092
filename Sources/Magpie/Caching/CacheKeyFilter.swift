import Foundation

/// Turns a URL into the string it is cached under, so URLs that differ only
/// in parts that do not change the image share one cache entry (SDWebImage's
/// cacheKeyFilter, Kingfisher's cacheKey).
public struct CacheKeyFilter: Sendable {
  private let transform: @Sendable (URL) -> String
  /// True for ``absoluteString``: callers holding the URL's string already
  /// may use it as the key without calling the filter.
  let isIdentity: Bool

  /// A filter that computes keys with `transform`.
  public init(_ transform: @escaping @Sendable (URL) -> String) {
    self.transform = transform
    self.isIdentity = false
  }

  private init(identityFilter: Void) {
    self.transform = { $0.absoluteString }
    self.isIdentity = true
  }

  /// The key for `url`.
  public func key(for url: URL) -> String { transform(url) }

  /// The URL's absolute string, unchanged: the default.
  public static let absoluteString = CacheKeyFilter(identityFilter: ())

  /// Drops the named query items (e.g. expiring signatures such as `e`,
  /// `token`, `X-Amz-Signature`), keeping the rest in order.
  public static func droppingQueryItems(_ names: Set<String>) -> CacheKeyFilter {
    CacheKeyFilter { url in
      guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
        let items = components.queryItems
      else { return url.absoluteString }
      let kept = items.filter { !names.contains($0.name) }
      components.queryItems = kept.isEmpty ? nil : kept
      return components.string ?? url.absoluteString
    }
  }
}
