/// Whether, and as what kind of cache, the manager follows the origin's
/// HTTP caching headers (RFC 9111): `Cache-Control` `max-age`,
/// `s-maxage`, `no-store`, `no-cache`, `immutable` and `private`,
/// `Expires` and `Age`. Off by default (`nil`): entries then live as long
/// as each tier's own expiry allows, whatever the origin said.
///
/// When on, each entry's lifetime is stored with it in every tier (the
/// disk cache's and Redis's metadata, next to its validators); a stale
/// entry, or one the origin marked `no-cache`, is revalidated with those
/// validators before use (a `304` keeps it), a `no-store` response is kept
/// in no tier, memory included, and an `immutable` one is not revalidated
/// while fresh, even with ``ImageLoadingOptions/refreshCached``.
public enum HTTPCaching: Sendable, Equatable {
  /// A private (one user's) cache: `s-maxage` is ignored and `private`
  /// responses are stored. What an app wants.
  case privateCache
  /// A shared cache, such as a fleet's Redis tier: `s-maxage` wins over
  /// `max-age`, and `private` responses are not stored.
  case sharedCache
}
