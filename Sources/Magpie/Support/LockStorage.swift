#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``Lock``'s one heap object: the value as the header and the
/// `pthread_mutex_t` as the single element of a `ManagedBuffer`, so a lock
/// costs one allocation and the mutex never moves (a pthread mutex must not
/// be copied or relocated while in use).
@usableFromInline
package final class LockStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
  /// Storage holding `value` behind an initialised adaptive mutex.
  static func make(_ value: sending Value) -> LockStorage<Value> {
    let buffer = create(minimumCapacity: 1) { _ in value }
    let storage = unsafeDowncast(buffer, to: LockStorage<Value>.self)
    storage.withUnsafeMutablePointerToElements { initializeAdaptive($0) }
    return storage
  }

  /// Initialises `mutex` as an adaptive mutex: a contended lock spins
  /// briefly before it sleeps. Locks here are held for a dictionary lookup
  /// or a list splice, so the holder is usually done before a sleep would
  /// even start. (``EngineLock``'s mutex is one too.)
  static func initializeAdaptive(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
    let status = pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    precondition(status == 0, "pthread_mutex_init failed: \(status)")
  }

  deinit {
    // The header (the value) is destroyed by ManagedBuffer; the element
    // is the subclass's to destroy.
    _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
  }
}
