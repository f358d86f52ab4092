import Dispatch
import Foundation
import Magpie

/// Up to ``RedisConfiguration/poolSize`` hiredis connections, each used by
/// one command at a time, opened on first use and again after one breaks.
///
/// hiredis's calls block, so they run on a queue of their own, never on
/// Swift's cooperative threads; a command waits at most the command timeout
/// for a free connection.
final class RedisConnectionPool: Sendable {
  private struct Box {
    var state: RedisPoolState<RedisConnection>
    var waiters: [Int: CheckedContinuation<Result<RedisConnection?, MagpieError>, Never>] = [:]
  }

  let configuration: RedisConfiguration
  private let box: Lock<Box>
  private let queue = DispatchQueue(label: "magpie.redis", qos: .userInitiated, attributes: .concurrent)

  init(configuration: RedisConfiguration) {
    self.configuration = configuration
    box = Lock(Box(state: RedisPoolState(size: max(1, configuration.poolSize))))
  }

  /// Sends one command and returns its reply. A `-ERR` reply is returned,
  /// not thrown; a connection that fails or times out throws.
  func send(_ arguments: [Data]) async throws(MagpieError) -> RedisReply {
    try await withConnection { connection throws(MagpieError) in try connection.command(arguments) }
  }

  /// Sends a command of strings and byte values.
  func send(_ words: String..., values: [Data] = []) async throws(MagpieError) -> RedisReply {
    try await send(words.map { Data($0.utf8) } + values)
  }

  /// Drops the idle connections (the server went away: they are stale).
  func reset() {
    _ = box.withLock { $0.state.drainIdle() }
  }

  /// Runs `body` on the blocking queue with a pooled connection.
  func withConnection<R: Sendable>(
    _ body: @escaping @Sendable (RedisConnection) throws(MagpieError) -> R
  ) async throws(MagpieError) -> R {
    let pooled = try await acquire().get()
    let configuration = configuration
    let outcome = await withCheckedContinuation {
      (done: CheckedContinuation<(Result<R, MagpieError>, RedisConnection?), Never>) in
      queue.async {
        do throws(MagpieError) {
          var connection: RedisConnection
          if let pooled { connection = pooled } else { connection = try RedisConnection(configuration) }
          done.resume(returning: (Result { () throws(MagpieError) -> R in try body(connection) }, connection))
        } catch {
          done.resume(returning: (.failure(error), nil))
        }
      }
    }
    release(outcome.1)
    return try outcome.0.get()
  }

  private func acquire() async -> Result<RedisConnection?, MagpieError> {
    await withCheckedContinuation { continuation in
      let immediate: Result<RedisConnection?, MagpieError>? = box.withLock { box in
        switch box.state.acquire() {
        case .use(let connection): return .success(connection)
        case .open: return .success(nil)
        case .wait(let id):
          box.waiters[id] = continuation
          scheduleExpiry(of: id)
          return nil
        }
      }
      if let immediate { continuation.resume(returning: immediate) }
    }
  }

  private func scheduleExpiry(of id: Int) {
    let timeout = configuration.commandTimeout
    Task { [self] in
      try? await Task.sleep(for: timeout)
      perform { $0.expire(id) }
    }
  }

  private func release(_ connection: RedisConnection?) {
    perform { $0.release(connection, broken: connection?.isBroken ?? true) }
  }

  /// Applies a state event and wakes the waiter it names, outside the lock.
  private func perform(
    _ event: @Sendable (inout RedisPoolState<RedisConnection>) -> RedisPoolState<RedisConnection>.Handoff
  ) {
    let (handoff, waiter) = box.withLock { box in
      let handoff = event(&box.state)
      let id: Int? =
        switch handoff {
        case .none: nil
        case .give(_, let id), .open(let id), .timeOut(let id): id
        }
      return (handoff, id.flatMap { box.waiters.removeValue(forKey: $0) })
    }
    guard let waiter else { return }
    switch handoff {
    case .none: break
    case .give(let connection, _): waiter.resume(returning: .success(connection))
    case .open: waiter.resume(returning: .success(nil))
    case .timeOut:
      let millis = configuration.commandTimeout.milliseconds
      waiter.resume(
        returning: .failure(
          MagpieError(.timedOut, "redis \(configuration.endpoint): no free connection within \(millis) ms")))
    }
  }
}
