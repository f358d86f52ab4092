/// The rate limiter in front of a ``TransferQueue``'s starts: a transfer
/// that gets its slot starts at once while the ``TokenBucket`` has a
/// token, else it is held (first in, first out, keeping its slot) until
/// one comes. A held transfer that is cancelled leaves without spending
/// one: a storm of starts and cancels costs the origin nothing.
final class StartGate: Sendable {
  private struct State {
    var bucket: TokenBucket
    var held: [(id: Int, start: TransferQueue.Start)] = []
    var timerSet = false
    var admitted = 0
  }

  private let state: Lock<State>
  private let clock: RateClock

  /// A gate that lets `limit`'s starts through, timed by `clock`.
  init(_ limit: RateLimit, clock: RateClock) {
    self.clock = clock
    state = Lock(State(bucket: TokenBucket(limit, now: clock.now())))
  }

  /// Starts how many transfers it has let through (tests read it).
  var admitted: Int { state.withLock { $0.admitted } }

  /// Transfers held for a token now.
  var heldCount: Int { state.withLock { $0.held.count } }

  /// Runs `start` now if a token is free and none is held before it, else
  /// holds it.
  func admit(_ id: Int, _ start: @escaping TransferQueue.Start) {
    let now = clock.now()
    let (runs, wait) = state.withLock { state -> (Bool, Duration?) in
      if state.held.isEmpty, state.bucket.take(at: now) == nil {
        state.admitted += 1
        return (true, nil)
      }
      state.held.append((id, start))
      return (false, armTimer(&state, now: now))
    }
    if runs { start(id) }
    if let wait { clock.after(wait) { [self] in release() } }
  }

  /// Drops held transfer `id` (its start never runs); `false` when it is
  /// not held.
  func drop(_ id: Int) -> Bool {
    state.withLock { state in
      guard let index = state.held.firstIndex(where: { $0.id == id }) else { return false }
      state.held.remove(at: index)
      return true
    }
  }

  /// The timer fired: starts the held transfers there are tokens for, and
  /// waits again for the rest.
  private func release() {
    let now = clock.now()
    let (ready, wait) = state.withLock { state -> ([(id: Int, start: TransferQueue.Start)], Duration?) in
      state.timerSet = false
      var ready: [(id: Int, start: TransferQueue.Start)] = []
      while !state.held.isEmpty, state.bucket.take(at: now) == nil {
        ready.append(state.held.removeFirst())
        state.admitted += 1
      }
      return (ready, armTimer(&state, now: now))
    }
    for (id, start) in ready { start(id) }
    if let wait { clock.after(wait) { [self] in release() } }
  }

  /// The delay to wait for a token when transfers are held and no timer
  /// is set (then one is), else `nil`.
  private func armTimer(_ state: inout State, now: Duration) -> Duration? {
    guard !state.held.isEmpty, !state.timerSet else { return nil }
    state.timerSet = true
    var probe = state.bucket
    return probe.take(at: now) ?? .zero
  }
}
