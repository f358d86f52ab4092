import Foundation

/// The walk over the storage tiers that lookups and the pipeline share.
extension ImageCache {
  /// What a walk of the tiers found.
  struct TierHit: Sendable {
    /// The stored bytes.
    var data: Data
    /// The decoded image, when the walk was asked to decode.
    var image: Image?
    /// The tier it came from.
    var cacheType: CacheType
    /// Whether the tier's policy wants the hit in memory.
    var fillsMemory: Bool
    /// The fills of faster write-behind tiers, for the caller to run after
    /// delivery; write-through fills already ran.
    var fill: (@Sendable () async -> Void)?
  }

  /// Reads `key` from its pending write-behind, if one has not landed,
  /// else from the readable tiers in order, and returns the first hit.
  /// With `decoding`, an entry the serializer cannot read is removed from
  /// its tier and the walk goes on. A failed read goes to
  /// ``readFailed`` and counts as a miss. With `fills`, a hit in a tier that
  /// fills faster tiers copies its bytes and metadata into the tiers before
  /// it (per their write modes); failed fills go to `writeFailed`. Tiers
  /// `access` does not read are skipped, and those it does not write are
  /// not filled.
  @concurrent
  func readTiers(
    forKey key: ImageCacheKey, decoding options: DecodeOptions?, fills: Bool, access: TierAccess = .all,
    readFailed alsoReadFailed: (@Sendable (MagpieError, ImageCacheKey, String) -> Void)? = nil,
    writeFailed: (@Sendable (MagpieError, ImageCacheKey) -> Void)?
  ) async -> TierHit? {
    let keyString = key.stringValue
    // A write-behind on its way is what the tiers will hold.
    if let pending = pendingHit(forKey: keyString, decoding: options, access: access) { return pending }
    for (index, tier) in tiers.enumerated() where tier.readPolicy == .always && access.reads(tier) {
      let data: Data
      do throws(MagpieError) {
        guard let stored = try await tier.storage.data(forKey: keyString) else { continue }
        data = stored
      } catch {
        readFailed?(error, key, tier.storage.name)
        alsoReadFailed?(error, key, tier.storage.name)
        Self.logFailure(of: "reading", key, tier, error)
        continue
      }
      var image: Image?
      if let options {
        image = serializer.image(with: data, options: options)
        if image == nil {
          try? await tier.storage.removeData(forKey: keyString)
          continue
        }
      }
      var hit = TierHit(data: data, image: image, cacheType: tier.cacheType, fillsMemory: tier.fillsFasterTiers)
      guard fills, tier.fillsFasterTiers, index > 0 else { return hit }
      let faster = Array(tiers[..<index])
      // Only a fill needs the metadata: a hit in the first tier reads none.
      var metadata: Data?
      do throws(MagpieError) {
        metadata = try await tier.storage.metadata(forKey: keyString)
      } catch {
        readFailed?(error, key, tier.storage.name)
        alsoReadFailed?(error, key, tier.storage.name)
      }
      let stored = metadata
      await write(
        data, forKey: key, metadata: stored, in: faster, mode: .writeThrough, access: access, failed: writeFailed)
      if faster.contains(where: { $0.writeMode == .writeBehind && access.writes($0) }) {
        hit.fill = { [self] in
          await write(
            data, forKey: key, metadata: stored, in: faster, mode: .writeBehind, access: access, failed: writeFailed)
        }
      }
      return hit
    }
    return nil
  }

  /// Tells each storage tier `access` reads that the fetch after its miss
  /// of `key` (and of its original, for a processed key) failed, so that a
  /// shared tier stops making other processes wait for the entry
  /// (``ImageDataStoring/abandonFetch(forKey:)``).
  func abandonFetch(forKey key: ImageCacheKey, access: TierAccess) async {
    for tier in tiers where tier.readPolicy == .always && access.reads(tier) {
      await tier.storage.abandonFetch(forKey: key.stringValue)
      if key.isProcessed { await tier.storage.abandonFetch(forKey: key.original.stringValue) }
    }
  }

  /// Writes what a load produced to the tiers with write mode `mode`: the
  /// image through the serializer under `key` (unless `image` is `nil`),
  /// then, with `alsoOriginal` and a processed key, `original` under the
  /// source's key (stored even when the image cannot be), skipping the
  /// tiers `access` does not write. Each failure goes to `failed`.
  func storeInTiers(
    _ image: Image?, original: Data, forKey key: ImageCacheKey, metadata: Data?, alsoOriginal: Bool,
    mode: CacheTier.WriteMode, access: TierAccess, failed: (@Sendable (MagpieError, ImageCacheKey) -> Void)?
  ) async {
    guard tiers.contains(where: { $0.writeMode == mode && access.writes($0) }) else { return }
    if let image {
      do throws(MagpieError) {
        let data = try await encode(image, original: original, key: key)
        await write(data, forKey: key, metadata: metadata, in: tiers, mode: mode, access: access, failed: failed)
      } catch {
        failed?(error, key)
      }
    }
    guard alsoOriginal && key.isProcessed else { return }
    await write(original, forKey: key.original, metadata: nil, in: tiers, mode: mode, access: access, failed: failed)
  }

  /// The serializer's bytes for `image`, made off the caller's thread.
  @concurrent
  func encode(_ image: Image, original: Data?, key: ImageCacheKey) async throws(MagpieError) -> Data {
    guard let data = CodecLoad.shared.counting({ serializer.data(with: image, original: original) }) else {
      throw MagpieError(.encodingFailed, "the cache serializer could not encode the image for \(key)")
    }
    return data
  }

  /// Stores `data` in every tier of `tiers`; throws the first failure after
  /// trying them all. A pending write-behind of the key is older than this
  /// store: reads no longer see it.
  func storeData(
    _ data: Data, forKey key: ImageCacheKey, metadata: Data?, in tiers: [CacheTier]
  ) async throws(MagpieError) {
    pendingWrites.remove(forKey: key.stringValue)
    var first: MagpieError?
    for tier in tiers {
      do throws(MagpieError) {
        try await tier.storage.storeData(data, forKey: key.stringValue, metadata: metadata)
      } catch {
        first = first ?? error
      }
    }
    if let first { throw first }
  }

  private func write(
    _ data: Data, forKey key: ImageCacheKey, metadata: Data?, in tiers: [CacheTier], mode: CacheTier.WriteMode,
    access: TierAccess, failed: (@Sendable (MagpieError, ImageCacheKey) -> Void)?
  ) async {
    for tier in tiers where tier.writeMode == mode && access.writes(tier) {
      do throws(MagpieError) {
        try await tier.storage.storeData(data, forKey: key.stringValue, metadata: metadata)
      } catch {
        failed?(error, key)
        Self.logFailure(of: "writing", key, tier, error)
      }
    }
  }

  /// Logs a failed tier access (a miss, or a store lost; the load goes on).
  private static func logFailure(of action: String, _ key: ImageCacheKey, _ tier: CacheTier, _ error: MagpieError) {
    MagpieLogging.log(
      .warning, "cache", "\(action) \(key) in the \(tier.storage.name) tier failed: \(error)",
      metadata: ["tier": tier.storage.name])
  }
}
