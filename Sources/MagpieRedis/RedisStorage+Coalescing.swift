import Foundation
import Magpie

/// Cross-instance coalescing: one instance fetches a missed key, the others
/// wait for its entry.
extension RedisStorage {
  /// In one round trip: the entry if it is there now (`{1, value}`), else
  /// the key's lock taken with `ARGV[1]` for `ARGV[2]` ms (`{2}`), else the
  /// holder's token (`{3, token}`).
  static let getOrLock = """
    local v = redis.call('GET', KEYS[1])
    if v then return {1, v} end
    if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {2} end
    return {3, redis.call('GET', KEYS[2]) or ''}
    """
  /// Deletes the lock only while it holds this instance's token, or marks
  /// it uncacheable (`ARGV[2]` set) so waiters stop waiting at once.
  static let unlock = """
    if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
    if ARGV[2] == '1' then return redis.call('SET', KEYS[1], 'uncacheable', 'KEEPTTL') and 1 or 0 end
    return redis.call('DEL', KEYS[1])
    """
  /// The lock token that tells waiters the holder will store nothing.
  static let uncacheable = "uncacheable"

  /// After a plain miss: takes the key's lock and returns `nil` (this
  /// instance fetches), or waits for the holder's entry, polling with
  /// growing pauses, and returns it; `nil` when the wait runs out, the
  /// holder gives up, or the tier is skipped.
  func coalescedMiss(forKey key: String) async -> Data? {
    guard configuration.coalescesMisses else {
      counters.add(.misses)
      return nil
    }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: configuration.lockWait)
    let token = UUID().uuidString
    var pause = Duration.milliseconds(2)
    var waited = false
    while true {
      let reply = await call(
        [
          "EVAL", Self.getOrLock, "2", stored(key), lockKey(key), token,
          "\(configuration.lockDuration.wholeMilliseconds)",
        ]
        .map(RedisArguments.bytes))
      guard case .array(let parts) = reply, case .integer(let outcome) = parts.first else { break }
      if outcome == 1, parts.count == 2, case .data(let value) = parts[1],
        let entry = await validated(value, forKey: key)
      {
        counters.add(waited ? .coalescedHits : .hits)
        return entry.payload
      }
      if outcome == 2 {
        heldLocks.withLock { $0[key] = token }
        counters.add(.misses)
        counters.add(.locksTaken)
        return nil
      }
      if outcome == 3, parts.count == 2, case .data(let holder) = parts[1],
        String(decoding: holder, as: UTF8.self) == Self.uncacheable
      {
        break
      }
      guard clock.now < deadline else { break }
      waited = true
      try? await Task.sleep(for: min(pause, deadline - clock.now))
      pause = min(pause * 2, .milliseconds(50))
    }
    counters.add(.misses)
    return nil
  }

  /// Gives up this instance's lock on `key`, if it holds one; with
  /// `uncacheable`, leaves it marked so the waiters fetch for themselves.
  func releaseLock(forKey key: String, uncacheable: Bool) async {
    guard let token = heldLocks.withLock({ $0.removeValue(forKey: key) }) else { return }
    _ = await call(["EVAL", Self.unlock, "1", lockKey(key), token, uncacheable ? "1" : "0"].map(RedisArguments.bytes))
  }

  /// The server's key for `key`'s lock.
  func lockKey(_ key: String) -> String { configuration.keyPrefix + "lock:" + key }
}
