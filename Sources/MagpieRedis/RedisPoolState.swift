/// Which connection a command gets: the state of ``RedisConnectionPool``
/// as a value that takes an event and says what to do, so the hand-out
/// rules are tested synchronously.
///
/// At most `size` connections are open or being opened. A command takes an
/// idle one, else opens a new one while fewer are open, else waits; a
/// returned connection goes to the oldest waiter first. A broken one is
/// dropped, and a waiter then gets the right to open a fresh one.
struct RedisPoolState<Connection: Sendable>: Sendable {
  /// What the caller of an event does next.
  enum Action: Sendable {
    /// Use this idle connection.
    case use(Connection)
    /// Open a new connection (the slot is counted already).
    case open
    /// Wait; ``handOut`` wakes waiter `id`.
    case wait(id: Int)
  }

  /// What a returned connection (or a timed-out waiter) leads to.
  enum Handoff: Sendable {
    /// Nothing more to do.
    case none
    /// Wake waiter `id` with this connection.
    case give(Connection, to: Int)
    /// Wake waiter `id` to open a connection (its slot is counted).
    case open(for: Int)
    /// Wake waiter `id` with a timeout error.
    case timeOut(Int)
  }

  let size: Int
  private(set) var idle: [Connection] = []
  /// Connections open or being opened, idle ones included.
  private(set) var open = 0
  private var waiters: [Int] = []
  private var nextWaiter = 0

  init(size: Int) {
    precondition(size > 0)
    self.size = size
  }

  /// Waiting commands, oldest first.
  var waiting: [Int] { waiters }

  /// A command wants a connection.
  mutating func acquire() -> Action {
    if let connection = idle.popLast() { return .use(connection) }
    if open < size {
      open += 1
      return .open
    }
    nextWaiter += 1
    waiters.append(nextWaiter)
    return .wait(id: nextWaiter)
  }

  /// A command is done with `connection` (`nil`: opening failed); `broken`
  /// drops it.
  mutating func release(_ connection: Connection?, broken: Bool) -> Handoff {
    guard let connection, !broken else {
      if !waiters.isEmpty { return .open(for: waiters.removeFirst()) }
      open -= 1
      return .none
    }
    if !waiters.isEmpty { return .give(connection, to: waiters.removeFirst()) }
    idle.append(connection)
    return .none
  }

  /// Waiter `id` waited too long; returns `.timeOut(id)` when it was still
  /// waiting (else it was handed something already).
  mutating func expire(_ id: Int) -> Handoff {
    guard let index = waiters.firstIndex(of: id) else { return .none }
    waiters.remove(at: index)
    return .timeOut(id)
  }

  /// Drops every idle connection (after the server went away).
  mutating func drainIdle() -> [Connection] {
    defer {
      open -= idle.count
      idle.removeAll()
    }
    return idle
  }
}
