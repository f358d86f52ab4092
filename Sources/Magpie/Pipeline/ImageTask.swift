/// One image load in flight: cancel it, change its priority, read its
/// progress. Returned by ``ImageManager/loadImage(with:progress:partialImage:completion:)``.
///
/// Cancelling completes the task with ``MagpieError/Code/cancelled`` at once;
/// its shared work stops only when no other task needs it. A cancelled
/// task's callbacks (other than that completion) are never called again.
public final class ImageTask: Sendable, Hashable {
  /// Bytes received so far and the total expected, if known.
  public struct Progress: Sendable, Equatable {
    /// Bytes received.
    public var completed: Int64
    /// Bytes expected in all; `nil` when the server did not say.
    public var total: Int64?

    /// The fraction done, 0 to 1; 0 when the total is unknown.
    public var fraction: Double {
      guard let total, total > 0 else { return 0 }
      return min(1, Double(completed) / Double(total))
    }
  }

  private struct State {
    var priority: DownloadPriority
    var progress = Progress(completed: 0, total: nil)
    var isCancelled = false
    var isFinished = false
    var onCancel: (@Sendable () -> Void)?
    var onPriority: (@Sendable (DownloadPriority) -> Void)?
  }

  /// A number unique among this process's tasks.
  public let id: Int
  /// The request being loaded.
  public let request: ImageRequest
  private let state: Lock<State>

  init(id: Int, request: ImageRequest) {
    self.id = id
    self.request = request
    self.state = Lock(State(priority: request.effectivePriority))
  }

  /// How urgently the task should start; changing it while the download
  /// waits for a slot moves it in the queue.
  public var priority: DownloadPriority {
    get { state.withLock { $0.priority } }
    set {
      let handler = state.withLock { state -> (@Sendable (DownloadPriority) -> Void)? in
        state.priority = newValue
        return state.isFinished ? nil : state.onPriority
      }
      handler?(newValue)
    }
  }

  /// Progress so far.
  public var progress: Progress { state.withLock { $0.progress } }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { state.withLock { $0.isCancelled } }

  /// Cancels the task (idempotent; does nothing once it has finished).
  public func cancel() {
    let handler = state.withLock { state -> (@Sendable () -> Void)? in
      guard !state.isCancelled, !state.isFinished else { return nil }
      state.isCancelled = true
      return state.onCancel
    }
    handler?()
  }

  /// Two tasks are equal when they are the same task.
  public static func == (lhs: ImageTask, rhs: ImageTask) -> Bool { lhs === rhs }

  /// Hashes the task's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  // MARK: Wiring (the manager's side)

  func connect(onCancel: @escaping @Sendable () -> Void, onPriority: @escaping @Sendable (DownloadPriority) -> Void) {
    let cancelNow = state.withLock { state -> Bool in
      state.onCancel = onCancel
      state.onPriority = onPriority
      return state.isCancelled
    }
    if cancelNow { onCancel() }
  }

  func setProgress(_ progress: Progress) -> Bool {
    state.withLock { state in
      guard !state.isCancelled, !state.isFinished else { return false }
      state.progress = progress
      return true
    }
  }

  /// Marks the task finished; returns false if it had been cancelled.
  func markFinished() -> Bool {
    state.withLock { state in
      state.isFinished = true
      state.onCancel = nil
      state.onPriority = nil
      return !state.isCancelled
    }
  }
}
