import Foundation
import Magpie

/// Shows prefetch progress: a bar redrawn in place on a terminal (count,
/// rate, ETA), or a plain line at each tenth of the work otherwise.
final class ProgressMeter: Sendable {
  private struct State {
    var lastDraw: ContinuousClock.Instant?
    var lastTenth = 0
  }

  private let total: Int
  private let interactive: Bool
  private let started = ContinuousClock.now
  private let state = Lock(State())

  init(total: Int, interactive: Bool) {
    self.total = total
    self.interactive = interactive
  }

  func update(_ progress: ImagePrefetcher.Progress) {
    let now = ContinuousClock.now
    let line: String? = state.withLock { state in
      if interactive {
        // At most 20 redraws a second, and always the last one.
        if let last = state.lastDraw, now - last < .milliseconds(50), progress.completed < total { return nil }
        state.lastDraw = now
        return "\r" + bar(progress, now: now)
      }
      let tenth = total == 0 ? 10 : progress.completed * 10 / total
      guard tenth > state.lastTenth else { return nil }
      state.lastTenth = tenth
      return summary(progress, now: now) + "\n"
    }
    if let line { FileHandle.standardError.write(Data(line.utf8)) }
  }

  func finish() {
    if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
  }

  private func rate(_ progress: ImagePrefetcher.Progress, now: ContinuousClock.Instant) -> Double {
    let seconds = (now - started).milliseconds / 1000
    return seconds > 0 ? Double(progress.completed) / seconds : 0
  }

  private func bar(_ progress: ImagePrefetcher.Progress, now: ContinuousClock.Instant) -> String {
    let width = 30
    let filled = total == 0 ? width : progress.completed * width / total
    let speed = rate(progress, now: now)
    let remaining = total - progress.completed
    let eta = speed > 0 ? String(format: "%.0fs", Double(remaining) / speed) : "?"
    return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
      + "\(progress.completed)/\(total) " + String(format: "%.0f/s", speed) + " ETA \(eta) "
      + "(\(progress.skipped) skipped, \(progress.failed) failed)  "
  }

  private func summary(_ progress: ImagePrefetcher.Progress, now: ContinuousClock.Instant) -> String {
    "\(progress.completed)/\(total) done: \(progress.finished) finished, \(progress.skipped) skipped, "
      + "\(progress.failed) failed, " + String(format: "%.0f/s", rate(progress, now: now))
  }
}
