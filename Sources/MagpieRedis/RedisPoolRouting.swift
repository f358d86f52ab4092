/// Which of a pool's connections the next command goes to, from how many
/// commands each has in flight (`nil`: the slot is empty or its connection
/// broke). A plain function of values, so the rule is tested synchronously.
///
/// The first connection with fewer than `depth` commands in flight
/// (lowest slot), so commands share connections, pipelined a few deep:
/// the server then reads several from one socket read and answers them in
/// one write, and the loop reads several replies at once, where one
/// command per connection costs a system call on each side for each.
/// Else a new connection in an empty slot, up to the pool's size; else the
/// connection with the fewest in flight. A `depth` of 1 keeps every
/// command on a connection of its own while the pool has room.
enum RedisPoolRouting: Equatable {
  /// Send on the connection in this slot.
  case use(Int)
  /// Open a connection in this slot and send on it.
  case open(Int)

  /// The route for the next command over `loads`, one per slot (at least
  /// one slot), sharing a connection up to `depth` commands deep.
  static func route(_ loads: [Int?], depth: Int = 1) -> RedisPoolRouting {
    precondition(!loads.isEmpty)
    if let shared = loads.firstIndex(where: { $0.map { $0 < max(1, depth) } ?? false }) { return .use(shared) }
    if let empty = loads.firstIndex(of: nil) { return .open(empty) }
    let least = loads.indices.min { loads[$0]! < loads[$1]! }!
    return .use(least)
  }
}
