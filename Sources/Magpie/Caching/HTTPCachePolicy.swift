import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What one response's caching headers say, read as ``HTTPCaching``
/// asks: whether it may be stored, until when it is fresh, and whether
/// each use must ask the origin first.
struct HTTPCachePolicy: Equatable, Sendable {
  /// Keep it in no cache (`no-store`, or `private` in a shared cache).
  var noStore = false
  /// Revalidate before every use (`no-cache`).
  var noCache = false
  /// Never revalidate while fresh (`immutable`).
  var immutable = false
  /// When it goes stale, in seconds since 1970; `nil` when the response
  /// gave no lifetime (then only the tiers' own expiry applies).
  var expires: Double?

  /// Whether an entry stored under this policy can be used at `now`
  /// without asking the origin.
  func isFresh(at now: Date) -> Bool {
    if noCache { return false }
    guard let expires else { return true }
    return now.timeIntervalSince1970 < expires
  }

  /// The policy of `response`, received at `receivedAt`, for a cache of
  /// kind `caching`.
  init(_ response: HTTPURLResponse, receivedAt: Date, caching: HTTPCaching) {
    var maxAge: Double?
    var sharedMaxAge: Double?
    for directive in Self.directives(response.value(forHTTPHeaderField: "Cache-Control") ?? "") {
      switch directive.name {
      case "no-store": noStore = true
      case "no-cache": noCache = true
      case "immutable": immutable = true
      case "private" where caching == .sharedCache: noStore = true
      case "max-age": maxAge = directive.seconds
      case "s-maxage": sharedMaxAge = directive.seconds
      default: break
      }
    }
    let now = receivedAt.timeIntervalSince1970
    let date = response.value(forHTTPHeaderField: "Date").flatMap(RetryAfter.httpDate)?.timeIntervalSince1970
    var lifetime: Double?
    if caching == .sharedCache, let sharedMaxAge {
      lifetime = sharedMaxAge
    } else if let maxAge {
      lifetime = maxAge
    } else if let expiresHeader = response.value(forHTTPHeaderField: "Expires") {
      // An Expires that is not a date ("0", "-1") means already expired.
      lifetime = RetryAfter.httpDate(expiresHeader).map { $0.timeIntervalSince1970 - (date ?? now) } ?? 0
    }
    guard let lifetime else { return }
    let age = max(Double(response.value(forHTTPHeaderField: "Age") ?? "").map { max($0, 0) } ?? 0, now - (date ?? now))
    expires = now + lifetime - age
  }

  /// A policy read back from storage.
  init(noStore: Bool = false, noCache: Bool, immutable: Bool, expires: Double?) {
    self.noStore = noStore
    self.noCache = noCache
    self.immutable = immutable
    self.expires = expires
  }

  /// `Cache-Control`'s comma-separated directives, lowercased, with their
  /// delta-seconds when they have one.
  private static func directives(_ header: String) -> [(name: String, seconds: Double?)] {
    header.split(separator: ",").map { part in
      let pieces = part.split(separator: "=", maxSplits: 1)
      let name = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
      let value = pieces.count == 2 ? pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: " \t\"")) : nil
      // RFC 9111 caps delta-seconds at 2^31.
      return (name, value.flatMap { Double($0) }.map { min(max($0, 0), 2_147_483_648) })
    }
  }
}
