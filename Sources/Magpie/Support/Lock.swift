#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread_mutex_t`: the one lock Magpie uses, with the
/// same `withLock` as `Synchronization.Mutex`.
///
/// Why not `Mutex`: on Linux it locks with raw futex calls that
/// ThreadSanitizer does not see, so every access under it reads as a race.
/// TSan intercepts `pthread_mutex_lock`/`unlock`, so under this lock its
/// reports mean something. It is a class, so a local lock can be captured
/// by escaping and sending closures.
///
/// `package`, not `public`: the library, the CLI and the tests share it, and
/// it is no part of Magpie's API. `@usableFromInline` because
/// `MemoryCache`'s inlinable hot paths take it.
///
/// `@unchecked Sendable` is sound because `value` is read and written only
/// inside `withLock`, between lock and unlock of `mutex`, and `withLock`
/// takes and returns values as `sending`, as `Mutex` does.
@usableFromInline
package final class Lock<Value: ~Copyable>: @unchecked Sendable {
  // Heap-allocated so the mutex never moves: a pthread mutex must not be
  // copied or relocated while in use.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let value: UnsafeMutablePointer<Value>

  /// Creates a lock holding `initialValue`.
  package init(_ initialValue: consuming sending Value) {
    mutex = .allocate(capacity: 1)
    // Adaptive: a contended lock spins briefly before it sleeps. Locks here
    // are held for a dictionary lookup or a list splice, so the holder is
    // usually done before a sleep would even start.
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
    let status = pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    precondition(status == 0, "pthread_mutex_init failed: \(status)")
    value = .allocate(capacity: 1)
    value.initialize(to: initialValue)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the value locked and returns what it returns; the
  /// lock is released on return and on throw. Not reentrant.
  @inlinable
  package func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
