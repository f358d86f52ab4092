import Dispatch
import Foundation
import Magpie

/// SIGTERM and SIGINT as an event a command can await, handled on a
/// dispatch queue (not in a signal handler, where almost nothing is safe).
enum TerminationSignal {
  /// The dispatch sources, kept alive for the process's life. Only
  /// ``wait()`` touches it, once, from the command's task.
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

  /// Returns on the first SIGTERM or SIGINT after the call.
  static func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let pending = Lock<CheckedContinuation<Void, Never>?>(continuation)
      for number in [SIGTERM, SIGINT] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { pending.withLock { $0.take() }?.resume() }
        source.resume()
        sources.append(source)
      }
    }
  }
}
