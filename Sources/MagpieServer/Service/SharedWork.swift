import Magpie

/// Identical work done once per process: the first caller for a key runs
/// it, callers arriving while it runs wait for its outcome.
final class SharedWork<Value: Sendable, Failure: Error>: Sendable {
  private let waiting = Lock<[String: [CheckedContinuation<Result<Value, Failure>?, Never>]]>([:])

  /// `work`'s outcome for `key`, run here or by the caller already running
  /// it. Returns whether this caller joined another's run.
  func run(_ key: String, _ work: () async -> Result<Value, Failure>) async -> (Result<Value, Failure>, joined: Bool) {
    let leads = waiting.withLock { table -> Bool in
      guard table[key] == nil else { return false }
      table[key] = []
      return true
    }
    if !leads {
      let outcome =
        await withCheckedContinuation { continuation in
          let late = waiting.withLock { table -> Bool in
            guard table[key] != nil else { return true }
            table[key]!.append(continuation)
            return false
          }
          // The run ended between the two looks: run again as leader.
          if late { continuation.resume(returning: nil) }
        } as Result<Value, Failure>?
      if let outcome { return (outcome, true) }
      return await run(key, work)
    }
    let outcome = await work()
    let followers = waiting.withLock { $0.removeValue(forKey: key) ?? [] }
    for follower in followers { follower.resume(returning: outcome) }
    return (outcome, false)
  }
}
