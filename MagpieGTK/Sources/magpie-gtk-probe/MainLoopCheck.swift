import Dispatch
import Foundation
import MagpieGTK

/// `Task { @MainActor in }` and `DispatchQueue.main.async` from background
/// threads run while only GLib's main loop runs the main thread.
@MainActor
enum MainLoopCheck {
  /// What ran, and where.
  @MainActor
  final class Record {
    var tasks = 0
    var blocks = 0
    var offMain = 0
  }

  nonisolated static let count = 500

  /// The failure, or `nil`.
  static func run() -> String? {
    GTKMainLoop.install()
    let record = Record()
    for _ in 0..<4 {
      Thread.detachNewThread {
        for _ in 0..<count / 4 {
          Task { @MainActor in
            if !Thread.isMainThread { record.offMain += 1 }
            record.tasks += 1
          }
          DispatchQueue.main.async {
            MainActor.assumeIsolated {
              if !Thread.isMainThread { record.offMain += 1 }
              record.blocks += 1
            }
          }
        }
      }
    }
    GTKMainLoop.iterate(until: { record.tasks == count && record.blocks == count })
    guard record.offMain == 0 else { return "\(record.offMain) jobs ran off the main thread" }
    // Work queued while the loop is idle in poll wakes it.
    let thread = Thread {
      Task { @MainActor in record.tasks += 1 }
    }
    thread.start()
    GTKMainLoop.iterate(until: { record.tasks == count + 1 })
    print("mainloop: \(record.tasks) tasks and \(record.blocks) blocks ran on the main thread")
    return nil
  }
}
