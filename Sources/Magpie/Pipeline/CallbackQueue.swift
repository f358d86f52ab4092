import Dispatch

/// Where the completion-handler API calls back.
public enum CallbackQueue: Sendable {
  /// The main queue (the main actor): what views want. The default.
  case main
  /// A dispatch queue of your choice.
  case queue(DispatchQueue)
  /// Whatever thread the work finished on: the lowest latency.
  case immediate
  /// The main actor, through `Task { @MainActor in ... }`: for any main
  /// loop that runs the main actor's executor (a GTK main loop integration,
  /// say), without assuming `dispatchMain()` drives the main queue.
  case mainActor

  func run(_ work: @escaping @Sendable () -> Void) {
    switch self {
    case .main: DispatchQueue.main.async(execute: work)
    case .queue(let queue): queue.async(execute: work)
    case .immediate: work()
    case .mainActor: Task { @MainActor in work() }
    }
  }
}
