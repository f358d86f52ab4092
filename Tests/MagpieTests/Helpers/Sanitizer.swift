import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which sanitizer the tests run under, read from the process itself so a
/// plain `swift test --sanitize=thread` knows it as well as `make sanitize`.
enum Sanitizer {
  /// Whether ThreadSanitizer's runtime is linked in. Its shadow memory
  /// counts in every resident-memory reading (and the CLI the tests start
  /// is instrumented too), so the peak-memory tests skip under it: their
  /// limits are checked by `make test`.
  static let thread = dlsym(nil, "__tsan_init") != nil

  /// How many times longer the tests' watchdogs wait: ThreadSanitizer
  /// makes everything several times slower, and a watchdog that fires
  /// under it only measures the machine's load.
  static let slowdown = thread ? 4 : 1

  /// The skip reason the peak-memory tests give under ThreadSanitizer.
  static let memoryReason: Comment = "peak memory is meaningless under ThreadSanitizer's shadow memory"
}
