/// The partial bodies a downloader keeps for resuming, by URL: the most
/// recent first, at most `maximumCount` of them and `maximumBytes` in all
/// (an entry larger than that is not kept). Taking an entry removes it:
/// one attempt resumes it, and keeps what it gets in turn if it fails.
final class ResumableDataStore: Sendable {
  private struct State {
    var entries: [(key: String, value: ResumableData)] = []
    var bytes = 0
  }

  let maximumCount: Int
  let maximumBytes: Int
  private let state = Lock(State())

  /// A store of at most `maximumCount` entries and `maximumBytes`.
  init(maximumCount: Int = 32, maximumBytes: Int = 64 << 20) {
    self.maximumCount = maximumCount
    self.maximumBytes = maximumBytes
  }

  /// Keeps `data` for `key`, replacing what was kept for it, and drops the
  /// oldest entries past the bounds.
  func store(_ data: ResumableData, for key: String) {
    guard data.data.count <= maximumBytes else { return }
    state.withLock { state in
      _ = Self.remove(key, from: &state)
      state.entries.append((key, data))
      state.bytes += data.data.count
      while state.entries.count > maximumCount || state.bytes > maximumBytes {
        state.bytes -= state.entries.removeFirst().value.data.count
      }
    }
  }

  /// Takes what was kept for `key`, if anything.
  func take(for key: String) -> ResumableData? {
    state.withLock { state in Self.remove(key, from: &state) }
  }

  /// Entries kept now.
  var count: Int { state.withLock { $0.entries.count } }

  private static func remove(_ key: String, from state: inout State) -> ResumableData? {
    guard let index = state.entries.firstIndex(where: { $0.key == key }) else { return nil }
    let removed = state.entries.remove(at: index).value
    state.bytes -= removed.data.count
    return removed
  }
}
