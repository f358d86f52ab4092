import Foundation

/// Write-behind entries that have not reached their tiers yet (Nuke's
/// `DataCache` keeps such a staging area). A load delivers before its
/// write-behind lands; until it does, reads of the key are served from
/// here, so a load right after another (a prefetch keeps nothing in
/// memory) never goes back to the origin for bytes that are on their way
/// to the disk.
///
/// Each staged key carries a generation: a write that lands removes its
/// own entry only, never a newer one staged for the same key meanwhile.
final class PendingWrites: Sendable {
  /// What a pending write will store.
  enum Entry: Sendable {
    /// Bytes as the tier will store them (an original).
    case data(Data)
    /// An image the serializer has yet to encode, and the bytes it was
    /// decoded from.
    case image(Image, original: Data)
  }

  /// A staged entry and where its write is going.
  struct Staged: Sendable {
    /// What will be stored.
    var entry: Entry
    /// The metadata (validators) stored with it.
    var metadata: Data?
    /// The type of a hit in the tier it is going to.
    var cacheType: CacheType
    /// Whether that tier's hits fill the memory cache.
    var fillsMemory: Bool
  }

  /// The staged keys of one write-behind, to land when it is done.
  struct Ticket: Sendable {
    fileprivate var keys: [String]
    fileprivate var generation: UInt64
  }

  private struct State {
    var entries: [String: (staged: Staged, generation: UInt64)] = [:]
    var nextGeneration: UInt64 = 0
  }

  private let state = Lock(State())

  /// Stages `entries` (by key) until the ticket it returns lands.
  func stage(_ entries: [(key: String, staged: Staged)]) -> Ticket {
    state.withLock { state in
      state.nextGeneration &+= 1
      let generation = state.nextGeneration
      for (key, staged) in entries { state.entries[key] = (staged, generation) }
      return Ticket(keys: entries.map(\.key), generation: generation)
    }
  }

  /// The write of `ticket` landed (or failed): its entries go, unless a
  /// later write staged the same key.
  func land(_ ticket: Ticket) {
    state.withLock { state in
      for key in ticket.keys where state.entries[key]?.generation == ticket.generation {
        state.entries[key] = nil
      }
    }
  }

  /// The pending entry for `key`, if a write of it has not landed.
  func staged(forKey key: String) -> Staged? {
    state.withLock { $0.entries[key]?.staged }
  }

  /// Forgets `key`'s pending entry (the key was removed from the cache).
  func remove(forKey key: String) {
    _ = state.withLock { $0.entries.removeValue(forKey: key) }
  }

  /// Forgets every pending entry (the tiers were emptied).
  func removeAll() {
    state.withLock { $0.entries.removeAll() }
  }
}
