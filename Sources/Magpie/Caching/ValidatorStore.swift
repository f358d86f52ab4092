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
  /// The validators of one response.
  struct Validators: Codable, Equatable, Sendable {
    var etag: String?
    var lastModified: String?

    /// The validators in `response`, or `nil` when it has neither.
    init?(_ response: HTTPURLResponse) {
      etag = response.value(forHTTPHeaderField: "ETag")
      lastModified = response.value(forHTTPHeaderField: "Last-Modified")
      if etag == nil && lastModified == nil { return nil }
    }

    /// The validators as disk-entry metadata: a JSON object that
    /// ``init(encoded:)`` reads back. Written here, not by `JSONEncoder`,
    /// which took longer than the rest of a store's bookkeeping.
    var encoded: Data? {
      var fields: [String] = []
      if let etag { fields.append("\"etag\":" + Self.quoted(etag)) }
      if let lastModified { fields.append("\"lastModified\":" + Self.quoted(lastModified)) }
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
