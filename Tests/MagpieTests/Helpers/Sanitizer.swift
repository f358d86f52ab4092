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

  /// Whether AddressSanitizer's runtime is linked in. Its allocator keeps
  /// freed blocks in quarantine and pads every allocation, so peak-memory
  /// readings mean as little under it as under ThreadSanitizer.
  static let address = dlsym(nil, "__asan_init") != nil

  /// Whether any sanitizer is linked in: the peak-memory tests skip then.
  static let distortsMemory = thread || address

  /// How many times longer the tests' watchdogs wait: ThreadSanitizer
  /// makes everything several times slower, and a watchdog that fires
  /// under it only measures the machine's load.
  static let slowdown = thread ? 4 : address ? 2 : 1

  /// The time limit of the suites that wait on background work. Swift
  /// Testing starts every test at once, so a limit also counts the time a
  /// test waits for one of the two cores; under ThreadSanitizer, with
  /// every test ten times slower, that wait alone passed one minute (a
  /// later run sat over 13 minutes: debug-build SIMD in the resampler takes a
  /// metadata lock per operation, so parallel resamples crawl there).
  static let suiteTimeLimit: TimeLimitTrait.Duration = .minutes(thread || address ? 45 : 1)

  /// A suite's time limit of `minutes` in a plain build; under a sanitizer
  /// the same 45 minutes as ``suiteTimeLimit``, for the same reason (under
  /// AddressSanitizer a fallback test that takes milliseconds waited
  /// 165 s for a cooperative thread, past its 2 minutes, while every test
  /// around it waited 148 s). The run's watchdog still bounds a hang.
  static func timeLimit(minutes: Int) -> TimeLimitTrait.Duration {
    .minutes(thread || address ? 45 : minutes)
  }

  /// `count` iterations of a hostile-input loop, an eighth of them under
  /// ThreadSanitizer (enough to run every path for races; `make test`
  /// runs them all) so that long synchronous loops do not hold the cores
  /// the other tests wait for.
  static func iterations(_ count: Int) -> Int { thread ? max(1, count / 8) : count }

  /// The skip reason the peak-memory tests give under a sanitizer.
  static let memoryReason: Comment = "peak memory is meaningless under a sanitizer's shadow memory and quarantine"
}
