import Foundation
import Magpie

/// Transformed images by (source, options, negotiated formats): a memory
/// tier of encoded bytes, then storage tiers in order (the disk cache, a
/// shared Redis tier). A hit in a slower tier fills the faster ones. A
/// tier that fails counts as a miss: an outage costs time, never an error.
final class ResultCache: Sendable {
  /// The memory tier, cost = bytes.
  let memory: MemoryCache<String, CachedResult>
  /// The storage tiers, fastest first.
  let tiers: [any ImageDataStoring]

  init(memoryLimit: Int, tiers: [any ImageDataStoring]) {
    memory = MemoryCache(limits: .init(totalCost: memoryLimit, expiration: .never))
    self.tiers = tiers
  }

  /// The result under `key` and the tier it came from (`memory` or the
  /// storage's name).
  func lookUp(_ key: String) async -> (result: CachedResult, tier: String)? {
    if let hit = memory.value(forKey: key) { return (hit, "memory") }
    for (index, tier) in tiers.enumerated() {
      guard let data = try? await tier.data(forKey: key), let metadata = try? await tier.metadata(forKey: key),
        let result = CachedResult(data: data, metadata: metadata)
      else { continue }
      memory.setValue(result, forKey: key, cost: result.data.count)
      for faster in tiers[..<index] { try? await faster.storeData(data, forKey: key, metadata: result.metadata) }
      return (result, tier.name)
    }
    return nil
  }

  /// Keeps `result` under `key` in every tier.
  func store(_ result: CachedResult, forKey key: String) async {
    // An encoder's Data may sit in a larger buffer than its bytes; the
    // tier keeps an exact copy, so its cost is what it holds.
    var compact = result
    compact.data = result.data.withUnsafeBytes { Data($0) }
    memory.setValue(compact, forKey: key, cost: compact.data.count)
    for tier in tiers { try? await tier.storeData(result.data, forKey: key, metadata: result.metadata) }
  }

  /// Says that no result is coming for `key` (its transform failed), so
  /// that tiers making other instances wait for it let them go.
  func abandon(_ key: String) async {
    for tier in tiers { await tier.abandonFetch(forKey: key) }
  }
}
