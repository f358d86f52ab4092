import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Remembers the `ETag` and `Last-Modified` the origin sent with each
/// source, so ``ImageLoadingOptions/refreshCached`` can ask "has it
/// changed?" instead of downloading again. Kept in memory and, when there is
/// one, in the disk cache beside the images.
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

    /// Adds the conditional headers to `request`.
    func apply(to request: inout URLRequest) {
      if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
      if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
    }
  }

  private let memory = Mutex<[String: Validators]>([:])
  private let disk: DiskCache?

  init(disk: DiskCache?) { self.disk = disk }

  private static func diskKey(_ source: String) -> String { "validators\n" + source }

  /// The validators stored for `source`.
  func validators(forSource source: String) -> Validators? {
    if let known = memory.withLock({ $0[source] }) { return known }
    guard let data = try? disk?.data(forKey: Self.diskKey(source)),
      let stored = try? JSONDecoder().decode(Validators.self, from: data)
    else { return nil }
    memory.withLock { $0[source] = stored }
    return stored
  }

  /// Remembers (or, with `nil`, forgets) the validators for `source` in
  /// memory; ``persist(_:forSource:)`` writes them to disk.
  func setValidators(_ validators: Validators?, forSource source: String) {
    memory.withLock { $0[source] = validators }
  }

  /// Writes (or removes) the validators for `source` on disk. Not flushed:
  /// losing them only costs one full download on the next revalidation.
  func persist(_ validators: Validators?, forSource source: String) throws(MagpieError) {
    guard let disk else { return }
    if let validators, let data = try? JSONEncoder().encode(validators) {
      try disk.store(data, forKey: Self.diskKey(source), durable: false)
    } else {
      try disk.remove(forKey: Self.diskKey(source))
    }
  }
}
