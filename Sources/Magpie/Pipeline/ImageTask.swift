import Synchronization

/// One image load in flight: await its ``response`` or ``image``, read
/// its ``events`` or ``progress``, change its ``priority``, ``cancel()`` it.
/// Made by ``ImageManager/imageTask(with:)``, the front door; the
/// completion-handler forms return one too.
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
    var priority: ImageRequest.Priority
    var progress = Progress(completed: 0, total: nil)
    var isCancelled = false
    var isFinished = false
    var onCancel: (@Sendable () -> Void)?
    var onPriority: (@Sendable (ImageRequest.Priority) -> Void)?
    /// The outcome, kept once finished so late ``events`` and ``response``
    /// readers get it; stored inline, so a memory hit allocates nothing.
    var result: Result<ImageResult, MagpieError>?
    /// Open ``events`` streams; empty (no allocation) until someone asks.
    var listeners: [Int: AsyncStream<Event>.Continuation] = [:]
    var nextListener = 0
    /// ``response`` readers waiting for the outcome.
    var waiters: [CheckedContinuation<Result<ImageResult, MagpieError>, Never>] = []

    /// Passes `event` to every listener, dropping those whose stream ended.
    mutating func yield(_ event: Event) {
      for (id, listener) in listeners {
        if case .terminated = listener.yield(event) { listeners[id] = nil }
      }
    }
  }

  /// A number unique among this process's tasks.
  public let id: Int
  /// The request being loaded.
  public let request: ImageRequest
  private let state: Lock<State>
  /// ``events`` streams not yet ended, counted without the lock: a stream
  /// that ends tells this at once, so ``wantsPartialImages`` turns false
  /// when the last reader leaves rather than at the next event.
  private let openListeners = Atomic<Int>(0)

  /// The manager's delegate, told of every event.
  private let delegate: (any ImageManagerDelegate)?

  @inline(__always)
  init(id: Int, request: ImageRequest, delegate: (any ImageManagerDelegate)?) {
    self.id = id
    self.request = request
    self.delegate = delegate
    self.state = Lock(State(priority: request.priority))
  }

  /// A task that finished as it was made (a memory hit): nobody can have
  /// listened yet, so it is built finished, without the lock.
  init(id: Int, request: ImageRequest, finished result: Result<ImageResult, MagpieError>) {
    self.id = id
    self.request = request
    delegate = nil
    var state = State(priority: request.priority)
    state.isFinished = true
    state.result = result
    self.state = Lock(state)
  }

  /// How urgently the task should start; changing it while the download
  /// waits for a slot moves it in the queue.
  public var priority: ImageRequest.Priority {
    get { state.withLock { $0.priority } }
    set {
      let handler = state.withLock { state -> (@Sendable (ImageRequest.Priority) -> Void)? in
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

  /// Installs the manager's handlers; returns the task's priority as they
  /// were installed (the caller applies a change made before then).
  func connect(
    onCancel: @escaping @Sendable () -> Void, onPriority: @escaping @Sendable (ImageRequest.Priority) -> Void
  ) -> ImageRequest.Priority {
    let (cancelNow, priority) = state.withLock { state -> (Bool, ImageRequest.Priority) in
      state.onCancel = onCancel
      state.onPriority = onPriority
      return (state.isCancelled, state.priority)
    }
    if cancelNow { onCancel() }
    return priority
  }

  /// Records progress and passes it to ``events`` listeners; false once
  /// the task was cancelled or finished (the caller then stays silent).
  func setProgress(_ progress: Progress) -> Bool {
    let live = state.withLock { state in
      guard !state.isCancelled, !state.isFinished else { return false }
      state.progress = progress
      // Yielding under the lock keeps events in order and none after
      // `finished`; a stream whose reader left is dropped here (see
      // `addListener`).
      state.yield(.progress(progress))
      return true
    }
    if live, let delegate { delegate.imageTask(self, didReceive: .progress(progress)) }
    return live
  }

  /// Passes a partial image to ``events`` listeners; false once the task
  /// was cancelled or finished.
  func deliverPartial(_ image: Image) -> Bool {
    let live = state.withLock { state in
      guard !state.isCancelled, !state.isFinished else { return false }
      state.yield(.partialImage(image))
      return true
    }
    if live, let delegate { delegate.imageTask(self, didReceive: .partialImage(image)) }
    return live
  }

  /// The outcome, once the task finished.
  var outcome: Result<ImageResult, MagpieError>? { state.withLock { $0.result } }

  /// The outcome's image, once the task finished: the image alone, not a
  /// copy of the whole result.
  var finishedImage: Result<Image, MagpieError>? {
    state.withLock { state in
      switch state.result {
      case .success(let result)?: .success(result.image)
      case .failure(let error)?: .failure(error)
      case nil: nil
      }
    }
  }

  /// Whether an ``events`` listener wants partial images (so the job
  /// decodes them even without a partial-image callback).
  var wantsPartialImages: Bool { openListeners.load(ordering: .relaxed) > 0 }

  /// Finishes the task with `result`, or with a cancellation error if it
  /// was cancelled, and returns what its completion should get; nil when
  /// it had already finished. Ends every ``events`` stream and wakes
  /// ``response`` readers.
  func finish(with result: Result<ImageResult, MagpieError>) -> Result<ImageResult, MagpieError>? {
    let finished = state.withLock {
      state -> (
        Result<ImageResult, MagpieError>, [AsyncStream<Event>.Continuation],
        [CheckedContinuation<Result<ImageResult, MagpieError>, Never>]
      )? in
      guard !state.isFinished else { return nil }
      state.isFinished = true
      state.onCancel = nil
      state.onPriority = nil
      let outcome = state.isCancelled ? .failure(Self.cancellation) : result
      state.result = outcome
      defer {
        state.listeners = [:]
        state.waiters = []
      }
      return (outcome, Array(state.listeners.values), state.waiters)
    }
    guard let (outcome, listeners, waiters) = finished else { return nil }
    // Outside the lock: finishing a stream runs its termination handler,
    // which takes the lock.
    for listener in listeners {
      listener.yield(.finished(outcome))
      listener.finish()
    }
    for waiter in waiters { waiter.resume(returning: outcome) }
    delegate?.imageTask(self, didReceive: .finished(outcome))
    return outcome
  }

  /// What a cancelled task completes with.
  static let cancellation = MagpieError(.cancelled, "the image task was cancelled")

  /// Registers `continuation` for events, or, once finished, sends it the
  /// outcome and ends it.
  func addListener(_ continuation: AsyncStream<Event>.Continuation) {
    openListeners.add(1, ordering: .relaxed)
    continuation.onTermination = { [weak self] _ in self?.openListeners.subtract(1, ordering: .relaxed) }
    let finished = state.withLock { state -> Result<ImageResult, MagpieError>? in
      if let result = state.result { return result }
      state.listeners[state.nextListener] = continuation
      state.nextListener += 1
      return nil
    }
    if let finished {
      continuation.yield(.finished(finished))
      continuation.finish()
      return
    }
    // No termination handler takes the lock to drop the listener: a
    // cancelled reader runs it while holding its task's own lock, which
    // the yield under this lock may need (a lock-order inversion); the
    // next yield drops a stream that ended instead. The handler only
    // counts the stream out, atomically.
  }

  /// Waits for the outcome (at once when finished).
  func waitForResult() async -> Result<ImageResult, MagpieError> {
    await withCheckedContinuation { continuation in
      let finished = state.withLock { state -> Result<ImageResult, MagpieError>? in
        if let result = state.result { return result }
        state.waiters.append(continuation)
        return nil
      }
      if let finished { continuation.resume(returning: finished) }
    }
  }
}
