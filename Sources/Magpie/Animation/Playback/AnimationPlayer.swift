/// Plays an animation into a target, driven by a ``FrameClock``: the
/// FLAnimatedImageView / SDAnimatedImagePlayer of Magpie, with the timing
/// rules of ``PlaybackState``. Frames come from an
/// ``AnimationFrameProvider`` and are never waited for.
///
/// ```swift
/// let player = AnimationPlayer(image: gif, clock: TimerFrameClock(), target: view)
/// player.onLoopCompleted = { loops, remaining in ... }
/// player.start()
/// player.isVisible = false   // scrolled away: pauses; true resumes where it was
/// ```
public final class AnimationPlayer: Sendable {
  private struct State {
    var playback: PlaybackState
    var statistics = PlaybackStatistics()
    var rate = 1.0
    var lastTick: Duration?
    var wantsPlaying = false
    var isVisible = true
    var onLoopCompleted: (@Sendable (_ completed: Int, _ remaining: Int?) -> Void)?
    var onFinished: (@Sendable () -> Void)?

    var isRunning: Bool { wantsPlaying && isVisible && !playback.isFinished }
  }

  /// The frames' durations and loop count.
  public let timeline: AnimationTimeline
  private let frames: any AnimationFrameProvider
  private let clock: any FrameClock
  private let target: any AnimationTarget
  private let state: Lock<State>

  /// A stopped player of `timeline`'s frames from `frames` into `target`.
  public init(
    timeline: AnimationTimeline, frames: any AnimationFrameProvider, clock: any FrameClock,
    target: any AnimationTarget
  ) {
    self.timeline = timeline
    self.frames = frames
    self.clock = clock
    self.target = target
    state = Lock(State(playback: PlaybackState(timeline: timeline)))
  }

  /// A stopped player of a decoded image's frames.
  public convenience init(image: Image, clock: any FrameClock, target: any AnimationTarget) {
    self.init(timeline: AnimationTimeline(image), frames: DecodedFrames(image), clock: clock, target: target)
  }

  deinit {
    clock.stop()
  }

  // MARK: Control

  /// Shows the current frame and plays from it.
  public func start() {
    update { $0.wantsPlaying = true }
    show(frame: currentFrame)
  }

  /// Stops where it is; ``start()`` resumes from there.
  public func pause() {
    update { $0.wantsPlaying = false }
  }

  /// Stops and goes back to the first frame, no loops played.
  public func stop() {
    update { state in
      state.wantsPlaying = false
      state.playback.reset()
    }
  }

  /// Shows `frame` from its start (a finished player can play again).
  public func seek(toFrame frame: Int) {
    update { $0.playback.seek(toFrame: frame) }
    show(frame: currentFrame)
  }

  /// How fast time runs: 1 is normal, 2 twice as fast; 0 holds the frame.
  public var playbackRate: Double {
    get { state.withLock { $0.rate } }
    set { state.withLock { $0.rate = max(0, newValue) } }
  }

  /// Whether the target can be seen; a hidden target pauses playback
  /// (no ticks, no decoding for it) and showing it resumes where it was.
  public var isVisible: Bool {
    get { state.withLock { $0.isVisible } }
    set { update { $0.isVisible = newValue } }
  }

  /// Whether the animation is advancing now.
  public var isPlaying: Bool { state.withLock { $0.isRunning } }

  /// The frame shown.
  public var currentFrame: Int { state.withLock { $0.playback.frame } }

  /// Loops played to the end.
  public var completedLoops: Int { state.withLock { $0.playback.completedLoops } }

  /// What playback has done so far.
  public var statistics: PlaybackStatistics { state.withLock { $0.statistics } }

  /// Called after each loop played to the end, with the loops done and
  /// those left (`nil` when it loops forever).
  public var onLoopCompleted: (@Sendable (_ completed: Int, _ remaining: Int?) -> Void)? {
    get { state.withLock { $0.onLoopCompleted } }
    set { state.withLock { $0.onLoopCompleted = newValue } }
  }

  /// Called once the last loop has ended (never for endless animations).
  public var onFinished: (@Sendable () -> Void)? {
    get { state.withLock { $0.onFinished } }
    set { state.withLock { $0.onFinished = newValue } }
  }

  // MARK: Ticks

  /// Applies `change`, then starts or stops the clock to match.
  private func update(_ change: (inout State) -> Void) {
    let (wasRunning, isRunning) = state.withLock { state -> (Bool, Bool) in
      let before = state.isRunning
      change(&state)
      if !state.isRunning { state.lastTick = nil }
      return (before, state.isRunning)
    }
    if isRunning && !wasRunning {
      clock.start { [weak self] now in self?.tick(at: now) }
    } else if !isRunning && wasRunning {
      clock.stop()
    }
  }

  private func tick(at now: Duration) {
    var ready: PixelBuffer?
    let outcome = state.withLock {
      state -> (PlaybackStep, Int, (@Sendable (Int, Int?) -> Void)?, (@Sendable () -> Void)?)? in
      guard state.isRunning else { return nil }
      // The first tick after starting only sets the time: a pause's gap
      // is not played.
      guard let last = state.lastTick else {
        state.lastTick = now
        return nil
      }
      state.lastTick = now
      let step = state.playback.advance(by: (now - last) * state.rate) { index in
        ready = frames.frameIfReady(index)
        return ready != nil
      }
      state.statistics.record(step)
      return (step, state.playback.completedLoops, state.onLoopCompleted, state.onFinished)
    }
    guard let (step, loops, onLoop, onFinished) = outcome else { return }
    if let index = step.shownFrame, let ready { target.show(ready, index: index) }
    if step.completedLoops > 0 {
      let remaining = timeline.loopCount == 0 ? nil : Optional(timeline.loopCount - loops)
      onLoop?(loops, remaining)
    }
    if step.finished {
      clock.stop()
      onFinished?()
    }
  }

  private func show(frame index: Int) {
    if let frame = frames.frameIfReady(index) { target.show(frame, index: index) }
  }
}
