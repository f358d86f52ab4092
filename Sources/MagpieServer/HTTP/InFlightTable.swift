/// The requests a server is answering, and whether it is draining: a value
/// that takes an event and says what to do, so the shutdown rules are
/// tested without sockets.
struct InFlightTable: Sendable, Equatable {
  /// Requests begun and not yet sent.
  private(set) var count = 0
  /// Whether new requests are refused (after ``drain()``).
  private(set) var isDraining = false

  /// What to do with a request that just arrived.
  enum Admission: Equatable {
    /// Answer it; it counts as in flight until ``end()``.
    case accept
    /// Refuse it (503, connection closed): the server is draining.
    case refuse
  }

  /// A request arrived.
  mutating func begin() -> Admission {
    guard !isDraining else { return .refuse }
    count += 1
    return .accept
  }

  /// A request's response was sent (or its connection closed). Returns
  /// whether that was the last one of a drain, so its waiters can go on.
  mutating func end() -> Bool {
    count = max(0, count - 1)
    return isDraining && count == 0
  }

  /// From now on refuse new requests. Returns whether nothing is in
  /// flight, so there is nothing to wait for.
  mutating func drain() -> Bool {
    isDraining = true
    return count == 0
  }
}
