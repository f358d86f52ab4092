import Foundation
import Synchronization

/// How much CPU-bound image work (decodes, processing, cache encodes) the
/// process runs at this moment, so that a codec able to split one image
/// over a helper thread (libwebp) does so only while a core has nothing
/// else to run.
///
/// On an idle machine libwebp's helper thread takes a quarter off a decode.
/// With every core busy it speeds nothing up and costs a thread wake-up
/// for each row of macroblocks: eight times as many context switches for a
/// pipeline of WebP thumbnails.
package final class CodecLoad: Sendable {
  /// The process's count, shared by every ``ImageManager``.
  package static let shared = CodecLoad(cores: ProcessInfo.processInfo.activeProcessorCount)

  private let running = Atomic<Int>(0)
  private let cores: Int

  /// A count for a machine with `cores` cores.
  init(cores: Int) {
    self.cores = max(1, cores)
  }

  /// Runs `work`, counted as running while it runs.
  func counting<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
    running.add(1, ordering: .relaxed)
    defer { running.subtract(1, ordering: .relaxed) }
    return try work()
  }

  /// Whether the counted work, the caller's own included when it is
  /// counted, leaves a core free for a helper thread.
  package var hasIdleCore: Bool { running.load(ordering: .relaxed) < cores }

  /// The threads a codec able to split one image should use for it now:
  /// the caller's and one per idle core, at most `limit`, or 1 when no
  /// core is idle.
  package func threads(limit: Int) -> Int {
    let idle = cores - running.load(ordering: .relaxed)
    return max(1, min(idle + 1, cores, limit))
  }
}
