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
/// reports mean something. It is a reference (a struct over one
/// ``LockStorage`` object, which holds the mutex and the value in a single
/// allocation, as swift-nio's `NIOLockedValueBox` does), so a local lock
/// can be captured by escaping and sending closures, and copies share it.
///
/// `package`, not `public`: the library, the CLI and the tests share it, and
/// it is no part of Magpie's API. `@usableFromInline` because
/// `MemoryCache`'s inlinable hot paths take it.
///
/// `@unchecked Sendable` is sound because the value is read and written
/// only inside `withLock`, between lock and unlock of the mutex, and
/// `withLock` takes and returns values as `sending`, as `Mutex` does.
@usableFromInline
package struct Lock<Value>: @unchecked Sendable {
  // Keeps the object (and so the two pointers into it) alive.
  @usableFromInline let storage: LockStorage<Value>
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let value: UnsafeMutablePointer<Value>

  /// Creates a lock holding `initialValue`.
  package init(_ initialValue: consuming sending Value) {
    storage = LockStorage.make(initialValue)
    (value, mutex) = storage.withUnsafeMutablePointers { ($0, $1) }
  }

  /// Runs `body` with the value locked and returns what it returns; the
  /// lock is released on return and on throw. Not reentrant.
  @inlinable
  package func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    #if DEBUG
      LockCounting.increment()
    #endif
    return try body(&value.pointee)
  }
}
