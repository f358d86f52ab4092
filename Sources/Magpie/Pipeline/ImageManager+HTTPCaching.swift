import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP caching rules (``HTTPCaching``) where the pipeline uses a
/// cached entry or stores a new one.
extension ImageManager {
  /// How `request` follows HTTP caching: the manager's setting, else the
  /// request's option (as a private cache), else not at all.
  func httpCaching(for request: ImageRequest) -> HTTPCaching? {
    if let caching = configuration.httpCaching { return caching }
    return request.options.contains(.followHTTPCaching) ? .privateCache : nil
  }

  /// What `response`'s caching headers say for `request`, when it
  /// follows them.
  func cachePolicy(for request: ImageRequest, response: HTTPURLResponse?) -> HTTPCachePolicy? {
    guard let response, let caching = httpCaching(for: request) else { return nil }
    return HTTPCachePolicy(response, receivedAt: configuration.now(), caching: caching)
  }

  /// Whether a memory hit for `key` may be served at once, before any
  /// job, by a request that follows HTTP caching (the caller checks
  /// that): only when this process knows the entry's rules and they say
  /// it is fresh (else the job reads the stored rules and revalidates).
  func servesMemoryHitAtOnce(_ key: ImageCacheKey) -> Bool {
    guard let policy = validators.knownValidators(for: key)?.policy else { return false }
    return policy.isFresh(at: configuration.now())
  }

  /// Whether the cached entry `key` must be asked about before use: when
  /// `options` ask (``ImageLoadingOptions/refreshCached``, unless the
  /// entry is `immutable` and fresh), or when its stored HTTP rules say
  /// it is stale or `no-cache`.
  func revalidates(_ key: ImageCacheKey, request: ImageRequest) async -> Bool {
    let refreshing = request.options.contains(.refreshCached)
    guard httpCaching(for: request) != nil, let policy = await validators.validators(for: key)?.policy else {
      return refreshing
    }
    guard policy.isFresh(at: configuration.now()) else { return true }
    return refreshing && !policy.immutable
  }
}
