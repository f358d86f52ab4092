import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Remembers the `ETag` and `Last-Modified` the origin sent with the
/// response each cache entry was made from, so
/// ``ImageLoadingOptions/refreshCached`` can ask "has it changed?" instead of
/// downloading again. Kept per entry, not per URL: two processed variants
/// made from different versions of one image each revalidate their own.
/// In memory here; on disk they travel with the entry's file as its
/// metadata (see ``DiskCache/store(_:forKey:metadata:)``).
final class ValidatorStore: Sendable {
  /// The validators of one response, and its HTTP caching rules when the
  /// manager follows them (``HTTPCaching``).
  struct Validators: Codable, Equatable, Sendable {
    var etag: String?
    var lastModified: String?
    /// When the entry goes stale, in seconds since 1970.
    var expires: Double?
    /// Whether each use revalidates first.
    var noCache: Bool?
    /// Whether it is never revalidated while fresh.
    var immutable: Bool?

    /// The validators in `response` with `policy`'s rules, or `nil` when
    /// there is nothing to keep.
    init?(_ response: HTTPURLResponse, policy: HTTPCachePolicy? = nil) {
      etag = response.value(forHTTPHeaderField: "ETag")
      lastModified = response.value(forHTTPHeaderField: "Last-Modified")
      if let policy {
        expires = policy.expires
        noCache = policy.noCache ? true : nil
        immutable = policy.immutable ? true : nil
      }
      if etag == nil && lastModified == nil && expires == nil && noCache == nil && immutable == nil { return nil }
    }

    /// The caching rules stored, if any were.
    var policy: HTTPCachePolicy? {
      guard expires != nil || noCache != nil || immutable != nil else { return nil }
      return HTTPCachePolicy(noCache: noCache ?? false, immutable: immutable ?? false, expires: expires)
    }

    /// These validators with `newer`'s (a `304`'s) where it has them, and
    /// its caching rules.
    func refreshed(by newer: Validators?) -> Validators {
      var merged = self
      guard let newer else { return merged }
      merged.etag = newer.etag ?? etag
      merged.lastModified = newer.lastModified ?? lastModified
      merged.expires = newer.expires
      merged.noCache = newer.noCache
      merged.immutable = newer.immutable
      return merged
    }

    /// The validators as disk-entry metadata: a JSON object that
    /// ``init(encoded:)`` reads back. Written here, not by `JSONEncoder`,
    /// which took longer than the rest of a store's bookkeeping.
    var encoded: Data? {
      var fields: [String] = []
      if let etag { fields.append("\"etag\":" + Self.quoted(etag)) }
      if let lastModified { fields.append("\"lastModified\":" + Self.quoted(lastModified)) }
      if let expires { fields.append("\"expires\":" + String(expires)) }
      if noCache == true { fields.append("\"noCache\":true") }
      if immutable == true { fields.append("\"immutable\":true") }
      return Data(("{" + fields.joined(separator: ",") + "}").utf8)
    }

    /// `text` as a JSON string (RFC 8259, section 7).
    private static func quoted(_ text: String) -> String {
      var out = "\""
      for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x22: out += "\\\""
        case 0x5C: out += "\\\\"
        case 0..<0x20:
          out += "\\u00" + String(scalar.value >> 4, radix: 16) + String(scalar.value & 15, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
      }
      return out + "\""
    }

    /// Validators read back from disk-entry metadata.
    init?(encoded: Data) {
      guard let decoded = try? JSONDecoder().decode(Validators.self, from: encoded) else { return nil }
      self = decoded
    }

    /// Adds the conditional headers to `request`.
    func apply(to request: inout URLRequest) {
      if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
      if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
    }
  }

  /// The most recently used entries' validators; older ones are read back
  /// from disk when needed, so a long-running process does not keep one
  /// for every image it ever loaded.
  private let memory = MemoryCache<String, Validators>(
    limits: .init(totalCost: .max, count: ValidatorStore.memoryCount, expiration: .never))
  private let cache: ImageCache

  /// How many entries' validators stay in memory.
  static let memoryCount = 4096

  init(cache: ImageCache) { self.cache = cache }

  /// The validators of the response `key`'s entry was made from.
  func validators(for key: ImageCacheKey) async -> Validators? {
    if let known = memory.value(forKey: key.stringValue) { return known }
    guard let data = await cache.metadata(forKey: key), let stored = Validators(encoded: data) else { return nil }
    memory.setValue(stored, forKey: key.stringValue, cost: 1)
    return stored
  }

  /// The validators of `key`'s entry if this process knows them, without
  /// reading a tier (the memory-hit check of ``HTTPCaching``).
  func knownValidators(for key: ImageCacheKey) -> Validators? {
    memory.value(forKey: key.stringValue)
  }

  /// Remembers (or, with `nil`, forgets) the validators for `key`'s entry
  /// for this process; the disk keeps them with the entry's file.
  func setValidators(_ validators: Validators?, for key: ImageCacheKey) {
    if let validators {
      memory.setValue(validators, forKey: key.stringValue, cost: 1)
    } else {
      _ = memory.removeValue(forKey: key.stringValue)
    }
  }
}
