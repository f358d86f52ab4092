#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
#if DEBUG
  import Synchronization
#endif

/// The one lock over the pipeline's bookkeeping: every stage table, stage,
/// job, the job table, their subscriptions and priorities (swift-nio's
/// shape: state as values whose events return what to do, here all behind
/// one lock, rather than Nuke's global actor; `magpie cache-bench engine`
/// measures both, see docs/pipeline.md). Process-wide, as Nuke's actor is:
/// a stage of one manager can wait on the downloader another shares, and
/// an event crosses both in one hold.
///
/// Only bookkeeping runs under it: dictionary lookups and ``SharedWork``
/// events. Heavy work (decoding, processing, disk, curl) and every
/// callback run after it is released, so it is held for microseconds and
/// never nested; debug builds trap on a nested take instead of hanging.
package enum EngineLock {
  nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    LockStorage<Void>.initializeAdaptive(mutex)
    return mutex
  }()

  #if DEBUG
    /// The thread holding the lock (0 when none), to catch a nested take.
    private static let owner = Atomic<UInt>(0)
    private static var threadID: UInt { UInt(pthread_self()) }
  #endif

  /// Runs `body` holding the lock. Not reentrant: `body` must not take it
  /// again (use the held forms of ``EngineGuarded``).
  package static func withLock<Result>(_ body: () -> Result) -> Result {
    #if DEBUG
      precondition(owner.load(ordering: .relaxed) != threadID, "the engine lock was taken while already held")
    #endif
    pthread_mutex_lock(mutex)
    #if DEBUG
      owner.store(threadID, ordering: .relaxed)
      LockCounting.increment()
    #endif
    defer {
      #if DEBUG
        owner.store(0, ordering: .relaxed)
      #endif
      pthread_mutex_unlock(mutex)
    }
    return body()
  }

  /// Runs `body` holding the lock; what `body` adds to `deferred` (a
  /// callback, a line's move, a partial decode) runs, in order, once the
  /// lock is released.
  static func withLock<Result>(deferring body: (_ deferred: inout [@Sendable () -> Void]) -> Result) -> Result {
    var deferred: [@Sendable () -> Void] = []
    let result = withLock { body(&deferred) }
    for action in deferred { action() }
    return result
  }

  /// Checks (in debug builds) that this thread holds the lock.
  static func assertHeld() {
    #if DEBUG
      precondition(owner.load(ordering: .relaxed) == threadID, "engine state used without the engine lock")
    #endif
  }
}
