/// Which of a pool's connections the next command goes to, from how many
/// commands each has in flight (`nil`: the slot is empty or its connection
/// broke). A plain function of values, so the rule is tested synchronously.
///
/// An idle connection first (lowest slot), so light load keeps to few
/// connections; else a new connection in an empty slot, up to the pool's
/// size; else the connection with the fewest in flight, where the command
/// is pipelined behind them.
enum RedisPoolRouting: Equatable {
  /// Send on the connection in this slot.
  case use(Int)
  /// Open a connection in this slot and send on it.
  case open(Int)

  /// The route for the next command over `loads`, one per slot (at least
  /// one slot).
  static func route(_ loads: [Int?]) -> RedisPoolRouting {
    precondition(!loads.isEmpty)
    if let idle = loads.firstIndex(of: 0) { return .use(idle) }
    if let empty = loads.firstIndex(of: nil) { return .open(empty) }
    let least = loads.indices.min { loads[$0]! < loads[$1]! }!
    return .use(least)
  }
}
