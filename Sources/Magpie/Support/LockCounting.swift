#if DEBUG
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// Debug builds only (release builds have none of it): how many ``Lock``s
  /// the current thread has taken, for the test that pins how many locks
  /// one progress event passes (docs/pipeline.md). Per thread, so tests
  /// running beside it do not count.
  @usableFromInline package enum LockCounting {
    @usableFromInline static let key: pthread_key_t = {
      var key = pthread_key_t()
      pthread_key_create(&key, nil)
      return key
    }()

    /// Counts one acquisition on this thread.
    @usableFromInline static func increment() {
      pthread_setspecific(key, UnsafeRawPointer(bitPattern: count + 1))
    }

    /// Locks taken on this thread so far.
    package static var count: Int { Int(bitPattern: pthread_getspecific(key)) }
  }
#endif
