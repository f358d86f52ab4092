import Dispatch

/// Splits row-by-row pixel work across the cores, when there is enough of
/// it to pay for waking threads.
enum RowParallelism {
  /// Roughly how much work (in pixel-taps) one chunk should hold: below
  /// this, handing rows to another thread costs more than it saves.
  static let minimumChunkCost = 200_000

  /// Runs `body` over `count` rows split into contiguous ranges, each handed
  /// to one call, on as many cores as the work (`costPerRow` units a row)
  /// warrants. `body` must touch only the rows it is given.
  static func run(_ count: Int, costPerRow: Int, _ body: (Range<Int>) -> Void) {
    guard count > 0 else { return }
    let total = count.multipliedReportingOverflow(by: max(costPerRow, 1))
    let work = total.overflow ? Int.max : total.partialValue
    let chunks = min(cores * 4, count, max(1, work / minimumChunkCost))
    if chunks <= 1 {
      body(0..<count)
      return
    }
    withoutActuallyEscaping(body) { body in
      // Each chunk touches only its own rows, and concurrentPerform returns
      // after the last one: sharing the closure across threads is safe.
      let shared = UncheckedSendable(body)
      DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        shared.value((count * chunk / chunks)..<(count * (chunk + 1) / chunks))
      }
    }
  }

  /// Cores online when the process started.
  static let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
