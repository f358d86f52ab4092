import Foundation

/// Write-behind entries staged until they land (see ``PendingWrites``).
extension ImageCache {
  /// Stages what a write-behind of `image` (and, with `alsoOriginal` and a
  /// processed key, of `original` under the source's key) will store, so
  /// reads find it before it lands; returns the ticket to land when the
  /// write is done, or `nil` when no readable tier is written behind (by
  /// `access`).
  func stageWriteBehind(
    _ image: Image?, original: Data, forKey key: ImageCacheKey, metadata: Data?, alsoOriginal: Bool,
    access: TierAccess
  ) -> PendingWrites.Ticket? {
    guard
      let tier = tiers.first(where: { $0.writeMode == .writeBehind && $0.readPolicy == .always && access.writes($0) })
    else {
      return nil
    }
    func staged(_ entry: PendingWrites.Entry, _ metadata: Data?) -> PendingWrites.Staged {
      PendingWrites.Staged(
        entry: entry, metadata: metadata, cacheType: tier.cacheType, fillsMemory: tier.fillsFasterTiers)
    }
    var entries: [(key: String, staged: PendingWrites.Staged)] = []
    if let image { entries.append((key.stringValue, staged(.image(image, original: original), metadata))) }
    if alsoOriginal && key.isProcessed { entries.append((key.original.stringValue, staged(.data(original), nil))) }
    return entries.isEmpty ? nil : pendingWrites.stage(entries)
  }

  /// A read of `key` served from its pending write, if one has not landed:
  /// the bytes (decoded with `options`, when given), or the image itself
  /// (encoded by the serializer only when bytes are asked for). Not when
  /// `access` skips the tier it will land in.
  func pendingHit(forKey key: String, decoding options: DecodeOptions?, access: TierAccess) -> TierHit? {
    guard let staged = pendingWrites.staged(forKey: key) else { return nil }
    if access != .all {
      guard !access.readsNoStorage, !access.skippedReads.contains(staged.cacheType) else { return nil }
    }
    switch staged.entry {
    case .data(let data):
      var image: Image?
      if let options {
        guard let decoded = serializer.image(with: data, options: options) else { return nil }
        image = decoded
      }
      return TierHit(data: data, image: image, cacheType: staged.cacheType, fillsMemory: staged.fillsMemory)
    case .image(let image, let original):
      if let options {
        // As a memory hit is served: the image, nothing read or decoded.
        var served = image
        if !options.keepsOriginalData { served.originalData = nil }
        return TierHit(data: Data(), image: served, cacheType: staged.cacheType, fillsMemory: staged.fillsMemory)
      }
      guard let data = CodecLoad.shared.counting({ serializer.data(with: image, original: original) }) else {
        return nil
      }
      return TierHit(data: data, image: nil, cacheType: staged.cacheType, fillsMemory: staged.fillsMemory)
    }
  }
}
