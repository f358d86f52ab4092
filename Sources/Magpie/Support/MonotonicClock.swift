#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Seconds on a clock that never jumps with wall-clock changes.
public enum MonotonicClock {
  /// Seconds since an arbitrary start, good to a few milliseconds. Reads the
  /// coarse clock where there is one: a cache hit must not pay for a precise
  /// timestamp it only compares with a lifetime of minutes.
  @Sendable public static func coarseSeconds() -> Double {
    var spec = timespec()
    #if os(Linux)
      clock_gettime(CLOCK_MONOTONIC_COARSE, &spec)
    #else
      clock_gettime(CLOCK_MONOTONIC, &spec)
    #endif
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}
