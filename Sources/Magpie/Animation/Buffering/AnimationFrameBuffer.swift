import Dispatch

/// Decoded frames of one animation, decoded ahead on a background queue
/// into a buffer bounded by a memory budget (FLAnimatedImage's frame
/// cache; the sizing rules are ``FrameWindow``'s): the whole animation
/// when it fits, a window from the frame last asked for otherwise, one
/// frame under memory pressure. Asking for a frame never blocks.
///
/// Players of the same animation can share one buffer. ``close()`` (or
/// dropping the buffer) stops the background decoding: no frame decode
/// starts afterwards.
public final class AnimationFrameBuffer: AnimationFrameProvider {
  private struct State {
    var window: FrameWindow
    var frames: [Int: PixelBuffer] = [:]
    var isClosed = false
    var peakBytes = 0
    var decodes = 0
    var failure: MagpieError?
    var pressureSince: ContinuousClock.Instant?
    /// Callers of ``waitUntilIdle()``.
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
  }

  /// The default budget: 20 MB of decoded frames.
  public static let defaultBudget = 20 << 20

  private let state: Lock<State>
  private let queue: DispatchQueue
  // Called only on `queue`, one call at a time: the decoder (a frame
  // source's session) is confined there, so it need not be Sendable.
  private let decoder: UncheckedSendable<(Int) throws(MagpieError) -> PixelBuffer>
  private let monitor: MemoryPressureMonitor?
  private let subscription: Lock<UInt64?> = Lock(nil)

  /// A buffer of `frameCount` frames of `frameSize` made by `decoder`
  /// (called on the buffer's queue, one frame at a time, each run of frames in
  /// ascending order), within `budgetBytes`; under pressure from `monitor` it holds
  /// one frame. Decoding starts with the first frame at once.
  public convenience init(
    frameCount: Int, frameSize: PixelSize, budgetBytes: Int = AnimationFrameBuffer.defaultBudget,
    monitor: MemoryPressureMonitor? = nil, decoder: sending @escaping (Int) throws(MagpieError) -> PixelBuffer
  ) {
    self.init(
      frameCount: frameCount, frameSize: frameSize, budgetBytes: budgetBytes, monitor: monitor,
      queue: DispatchQueue(label: "magpie.frame-buffer", qos: .userInitiated), decoder: decoder)
  }

  /// As the public init, decoding on `queue` (serial): a test drains it to
  /// see what ran.
  init(
    frameCount: Int, frameSize: PixelSize, budgetBytes: Int, monitor: MemoryPressureMonitor?,
    queue: DispatchQueue, decoder: sending @escaping (Int) throws(MagpieError) -> PixelBuffer
  ) {
    self.queue = queue
    let frameBytes = max(1, frameSize.width * frameSize.height * 4)
    state = Lock(State(window: FrameWindow(frameCount: frameCount, frameBytes: frameBytes, budgetBytes: budgetBytes)))
    self.decoder = UncheckedSendable(decoder)
    self.monitor = monitor
    if let monitor {
      let token = monitor.subscribe { [weak self] level in
        if level > .normal { self?.enterMemoryPressure() }
      }
      subscription.withLock { $0 = token }
    }
    scheduleNext()
  }

  deinit {
    if let token = subscription.withLock({ $0 }) { monitor?.unsubscribe(token) }
  }

  /// Frame `index` if it is decoded; moves the window to start there and
  /// decodes ahead of it, forward.
  public func frameIfReady(_ index: Int) -> PixelBuffer? {
    frameIfReady(index, heading: .forward)
  }

  /// Frame `index` if it is decoded; moves the window to start there and
  /// decodes ahead of it along `heading` (backward in reverse: each run of
  /// frames upward from its keyframe, see ``FrameWindow``).
  public func frameIfReady(_ index: Int, heading: PlaybackHeading) -> PixelBuffer? {
    let (frame, pressured) = state.withLock { state -> (PixelBuffer?, ContinuousClock.Instant?) in
      for dropped in state.window.request(index, heading: heading) { state.frames[dropped] = nil }
      return (state.frames[state.window.anchor], state.pressureSince)
    }
    if let pressured, ContinuousClock.now - pressured > .seconds(2), monitor?.currentLevel() ?? .normal == .normal {
      leaveMemoryPressure()
    }
    scheduleNext()
    return frame
  }

  /// Drops every decoded frame and decodes nothing more until a frame is
  /// asked for again (a decode running now is thrown away).
  public func dropDecodedFrames() {
    state.withLock { state in
      for dropped in state.window.clear() { state.frames[dropped] = nil }
    }
  }

  /// Stops decoding ahead and drops every frame.
  public func close() {
    state.withLock { state in
      state.isClosed = true
      state.frames = [:]
    }
  }

  /// The most bytes of frames held at once so far.
  public var peakBytes: Int { state.withLock { $0.peakBytes } }

  /// Bytes of frames held now.
  public var heldBytes: Int { state.withLock { $0.window.cachedBytes } }

  /// Frames decoded so far (every decode, kept or not).
  public var decodeCount: Int { state.withLock { $0.decodes } }

  /// The first decode failure, after which the buffer decodes no more.
  public var failure: MagpieError? { state.withLock { $0.failure } }

  /// The window's sizing (for diagnostics and tests).
  public var window: FrameWindow { state.withLock { $0.window } }

  /// Holds only the frame asked for last until ``leaveMemoryPressure()``.
  public func enterMemoryPressure() {
    state.withLock { state in
      for dropped in state.window.enterMemoryPressure() { state.frames[dropped] = nil }
      state.pressureSince = ContinuousClock.now
    }
  }

  /// Goes back to the budget's window, which refills as frames decode.
  public func leaveMemoryPressure() {
    state.withLock { state in
      state.window.leaveMemoryPressure()
      state.pressureSince = nil
    }
    scheduleNext()
  }

  /// Returns once no decode runs or waits to run: lets a test look at a
  /// settled buffer without sleeping.
  func waitUntilIdle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = state.withLock { state -> Bool in
        if state.window.decoding == nil { return true }
        state.idleWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }

  /// Runs `finishing` (the end of the last decode) and picks the next
  /// frame in one critical section: were they two, ``waitUntilIdle()``
  /// could run between them, see no decode in flight and return while
  /// frames were still to come.
  private func scheduleNext(finishing: (inout State) -> Void = { _ in }) {
    let (next, idle) = state.withLock { state -> (Int?, [CheckedContinuation<Void, Never>]) in
      finishing(&state)
      let next = !state.isClosed && state.failure == nil ? state.window.nextToDecode() : nil
      guard state.window.decoding == nil else { return (next, []) }
      defer { state.idleWaiters = [] }
      return (next, state.idleWaiters)
    }
    for waiter in idle { waiter.resume() }
    guard let next else { return }
    queue.async { [weak self] in self?.decode(next) }
  }

  private func decode(_ index: Int) {
    guard !state.withLock({ $0.isClosed }) else {
      scheduleNext { $0.window.abandonedDecoding(index) }
      return
    }
    let result: Result<PixelBuffer, MagpieError>
    do throws(MagpieError) {
      result = .success(try decoder.value(index))
    } catch {
      result = .failure(error)
    }
    scheduleNext { state in
      state.decodes += 1
      switch result {
      case .success(let pixels):
        guard !state.isClosed else {
          state.window.abandonedDecoding(index)
          return
        }
        guard state.window.finishedDecoding(index) else { return }
        state.frames[index] = pixels
        state.peakBytes = max(state.peakBytes, state.window.cachedBytes)
      case .failure(let error):
        state.window.abandonedDecoding(index)
        state.failure = state.failure ?? error
      }
    }
  }
}
