import Dispatch

/// Where the completion-handler API calls back.
public enum CallbackQueue: Sendable {
  /// The main queue, which is the main actor's executor: what views want,
  /// and the default. A GTK app drains it from GLib's main loop
  /// (`GTKMainLoop.install()` in MagpieGTK).
  case main
  /// A dispatch queue of your choice.
  case queue(DispatchQueue)
  /// Whatever thread the work finished on: the lowest latency.
  case immediate

  func run(_ work: @escaping @Sendable () -> Void) {
    switch self {
    case .main: DispatchQueue.main.async(execute: work)
    case .queue(let queue): queue.async(execute: work)
    case .immediate: work()
    }
  }
}
