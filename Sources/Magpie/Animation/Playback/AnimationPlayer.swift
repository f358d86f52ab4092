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
/// player.mode = .bounce       // 0...n-1 and back, from the frame shown
/// player.stepForward()        // a scrubber: pauses and shows the next frame
/// ```
///
/// A frame asked for by ``start()``, ``seek(toFrame:)`` or a step that is
/// not decoded yet is shown once it is: the clock keeps ticking until then.
public final class AnimationPlayer: Sendable {
  private struct State {
    var playback: PlaybackState
    var statistics = PlaybackStatistics()
    var rate = 1.0
    var lastTick: Duration?
    var wantsPlaying = false
    var isVisible = true
    /// The frame shown by the state was not ready when asked for: the
    /// target has not seen it yet.
    var showPending = false
    var clearsBufferWhenStopped = false
    var resetsFrameIndexWhenStopped = true
    var onLoopCompleted: (@Sendable (_ completed: Int, _ remaining: Int?) -> Void)?
    var onFinished: (@Sendable () -> Void)?

    /// Whether time advances the animation.
    var isAdvancing: Bool { wantsPlaying && isVisible && !playback.isFinished }
    /// Whether the clock must tick: to advance, or to show a frame once ready.
    var needsTicks: Bool { isAdvancing || (isVisible && showPending) }
  }

  /// What one tick does outside the lock.
  private struct TickOutcome {
    var step = PlaybackStep()
    var shown: [(PixelBuffer, Int)] = []
    var loops = 0
    var loopCount = 0
    var stopsClock = false
    var onLoop: (@Sendable (Int, Int?) -> Void)?
    var onFinished: (@Sendable () -> Void)?
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
    showCurrentFrame()
  }

  /// Stops where it is; ``start()`` resumes from there.
  public func pause() {
    update { $0.wantsPlaying = false }
  }

  /// Stops: back to the mode's first frame with no loops played when
  /// ``resetsFrameIndexWhenStopped`` (the default), else where it is as
  /// ``pause()`` does; the buffer's decoded frames are dropped when
  /// ``clearsBufferWhenStopped``.
  public func stop() {
    let clears = update { state -> Bool in
      state.wantsPlaying = false
      state.showPending = false
      if state.resetsFrameIndexWhenStopped { state.playback.reset() }
      return state.clearsBufferWhenStopped
    }
    if clears { frames.dropDecodedFrames() }
  }

  /// Shows `frame` from its start (a finished player can play again).
  public func seek(toFrame frame: Int) {
    update { $0.playback.seek(toFrame: frame) }
    showCurrentFrame()
  }

  /// Pauses and shows the frame `count` frames on in the mode's order
  /// (back when negative), wrapping around: a scrubber's step. No loop is
  /// counted.
  public func step(by count: Int) {
    update { state in
      state.wantsPlaying = false
      state.playback.step(by: count)
    }
    showCurrentFrame()
  }

  /// Pauses and shows the next frame in the mode's order.
  public func stepForward() { step(by: 1) }

  /// Pauses and shows the previous frame in the mode's order.
  public func stepBackward() { step(by: -1) }

  /// How fast time runs: 1 is normal, 2 twice as fast; 0 holds the frame.
  /// Settable while playing: the next tick plays the time since the last
  /// one at the new rate.
  public var playbackRate: Double {
    get { state.withLock { $0.rate } }
    set { state.withLock { $0.rate = max(0, newValue) } }
  }

  /// The order frames play in (``PlaybackMode/forward`` by default).
  /// Set before playing, playback starts at the mode's first frame (the
  /// last frame in reverse); changed later, it keeps the frame shown and
  /// goes on from there.
  public var mode: PlaybackMode {
    get { state.withLock { $0.playback.mode } }
    set { update { $0.playback.mode = newValue } }
  }

  /// How many times to play instead of the file's loop count (0: forever);
  /// `nil`, the default, plays the file's.
  public var loopCountOverride: Int? {
    get { state.withLock { $0.playback.loopCountOverride } }
    set { update { $0.playback.loopCountOverride = newValue.map { max(0, $0) } } }
  }

  /// How many times the animation plays (0: forever), override included.
  public var loopCount: Int { state.withLock { $0.playback.loopCount } }

  /// Whether ``stop()`` drops the frames decoded so far (SDWebImage's
  /// `clearBufferWhenStopped`); `false` by default.
  public var clearsBufferWhenStopped: Bool {
    get { state.withLock { $0.clearsBufferWhenStopped } }
    set { state.withLock { $0.clearsBufferWhenStopped = newValue } }
  }

  /// Whether ``stop()`` goes back to the mode's first frame and forgets the
  /// loops played (SDWebImage's `resetFrameIndexWhenStopped`); `true` by
  /// default, as ``stop()`` always did.
  public var resetsFrameIndexWhenStopped: Bool {
    get { state.withLock { $0.resetsFrameIndexWhenStopped } }
    set { state.withLock { $0.resetsFrameIndexWhenStopped = newValue } }
  }

  /// Whether the target can be seen; a hidden target pauses playback
  /// (no ticks, no decoding for it) and showing it resumes where it was.
  public var isVisible: Bool {
    get { state.withLock { $0.isVisible } }
    set { update { $0.isVisible = newValue } }
  }

  /// Whether the animation is advancing now.
  public var isPlaying: Bool { state.withLock { $0.isAdvancing } }

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
  @discardableResult
  private func update<Result>(_ change: (inout State) -> Result) -> Result {
    let (wasTicking, isTicking, result) = state.withLock { state -> (Bool, Bool, Result) in
      let before = state.needsTicks
      let result = change(&state)
      if !state.isAdvancing { state.lastTick = nil }
      return (before, state.needsTicks, result)
    }
    if isTicking && !wasTicking {
      clock.start { [weak self] now in self?.tick(at: now) }
    } else if !isTicking && wasTicking {
      clock.stop()
    }
    return result
  }

  private func tick(at now: Duration) {
    let frames = self.frames
    let outcome = state.withLock { state -> TickOutcome? in
      guard state.needsTicks else { return nil }
      var outcome = TickOutcome(onLoop: state.onLoopCompleted, onFinished: state.onFinished)
      if state.isAdvancing {
        // The first tick after starting only sets the time: a pause's gap
        // is not played.
        if let last = state.lastTick {
          var ready: PixelBuffer?
          outcome.step = state.playback.advance(by: (now - last) * state.rate) { index, heading in
            ready = frames.frameIfReady(index, heading: heading)
            return ready != nil
          }
          state.statistics.record(outcome.step)
          if let index = outcome.step.shownFrame, let ready {
            outcome.shown.append((ready, index))
            state.showPending = false
          }
        }
        state.lastTick = now
      }
      if state.showPending,
        let pixels = frames.frameIfReady(state.playback.frame, heading: state.playback.heading)
      {
        outcome.shown.append((pixels, state.playback.frame))
        state.showPending = false
      }
      outcome.loops = state.playback.completedLoops
      outcome.loopCount = state.playback.loopCount
      outcome.stopsClock = !state.needsTicks
      if outcome.stopsClock { state.lastTick = nil }
      return outcome
    }
    guard let outcome else { return }
    for (pixels, index) in outcome.shown { target.show(pixels, index: index) }
    if outcome.step.completedLoops > 0 {
      let remaining = outcome.loopCount == 0 ? nil : Optional(max(0, outcome.loopCount - outcome.loops))
      outcome.onLoop?(outcome.loops, remaining)
    }
    if outcome.stopsClock { clock.stop() }
    if outcome.step.finished { outcome.onFinished?() }
  }

  /// Shows the state's frame if it is ready, else once it is.
  private func showCurrentFrame() {
    let (index, heading) = state.withLock { ($0.playback.frame, $0.playback.heading) }
    if let frame = frames.frameIfReady(index, heading: heading) {
      update { $0.showPending = false }
      target.show(frame, index: index)
    } else {
      update { $0.showPending = true }
    }
  }
}
