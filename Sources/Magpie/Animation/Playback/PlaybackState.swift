/// Playback as a value: which frame is shown, how long it has been shown,
/// how many loops are done. `advance(by:isReady:)` takes the time since
/// the last tick and returns what to do, so the timing rules are tested
/// synchronously (``AnimationPlayer`` keeps one behind its lock).
///
/// The rules (FLAnimatedImageView's, with SDWebImage's skipping): time
/// accumulates and frames advance by their durations; a late tick skips
/// the frames whose time has passed rather than slowing down; a frame not
/// decoded yet holds the current one, and the animation resumes from there
/// once it is ready; the last loop stays on its end frame. Frames play in
/// the order of ``mode`` (see ``PlaybackMode`` for what one loop is).
public struct PlaybackState: Sendable, Equatable {
  /// The frames' durations and loop count.
  public let timeline: AnimationTimeline
  /// Where playback is in one loop of its mode: the `position`-th frame
  /// the loop shows (a bounce's loop has `2n - 2` of them).
  public private(set) var position = 0
  /// How long the frame has been shown.
  public private(set) var elapsedInFrame: Duration = .zero
  /// Loops played to the end.
  public private(set) var completedLoops = 0
  /// Whether the last loop has ended.
  public private(set) var isFinished = false
  /// How many times to play instead of the timeline's loop count (0:
  /// forever); `nil` plays the file's.
  public var loopCountOverride: Int?
  private var storedMode: PlaybackMode

  /// Playback of `timeline` in `mode` from the mode's first frame, played
  /// `loopCountOverride` times when given (else as the file says).
  public init(timeline: AnimationTimeline, mode: PlaybackMode = .forward, loopCountOverride: Int? = nil) {
    self.timeline = timeline
    storedMode = mode
    self.loopCountOverride = loopCountOverride
  }

  /// The order frames play in. Changing it at the start (nothing played,
  /// the mode's first frame) starts at the new mode's first frame;
  /// otherwise it keeps the frame shown, its time and the loops played,
  /// and playback goes on from there in the new order.
  public var mode: PlaybackMode {
    get { storedMode }
    set {
      let atStart = position == 0 && elapsedInFrame == .zero && completedLoops == 0
      let (shown, backward) = (frame, heading.isBackward)
      storedMode = newValue
      position = atStart ? 0 : position(of: shown, backward: backward)
    }
  }

  /// The frame shown.
  public var frame: Int { frame(at: position) }

  /// Where playback goes from the frame shown.
  public var heading: PlaybackHeading { heading(at: position) }

  /// How many times the animation plays (0: forever): the override, else
  /// the timeline's.
  public var loopCount: Int { max(0, loopCountOverride ?? timeline.loopCount) }

  /// Frames in one loop of the mode.
  public var loopLength: Int {
    let n = timeline.frameCount
    return storedMode == .bounce ? max(1, 2 * n - 2) : n
  }

  /// One loop's length in the mode (a bounce shows the inner frames twice).
  public var loopDuration: Duration {
    let n = timeline.frameCount
    guard storedMode == .bounce, n > 2 else { return timeline.loopDuration }
    return timeline.loopDuration * 2 - timeline.durations[0] - timeline.durations[n - 1]
  }

  /// Advances by `elapsed` (already scaled by the playback rate). `isReady`
  /// says whether a frame can be shown now; only the frame that ends up
  /// shown is asked.
  public mutating func advance(by elapsed: Duration, isReady: (Int) -> Bool) -> PlaybackStep {
    advance(by: elapsed) { index, _ in isReady(index) }
  }

  /// As the other ``advance(by:isReady:)``, telling `isReady` the
  /// heading playback will have at that frame, so a buffer can decode
  /// ahead the right way.
  public mutating func advance(by elapsed: Duration, isReady: (Int, PlaybackHeading) -> Bool) -> PlaybackStep {
    var step = PlaybackStep()
    guard !isFinished, timeline.frameCount > 1, elapsed > .zero else { return step }
    let length = loopLength
    let loopTime = loopDuration
    var time = elapsedInFrame + elapsed
    var target = position
    var loops = 0
    // Whole loops at once, so an hour-long stall costs no hour of steps.
    if time >= loopTime * 2 {
      let whole = Int(time / loopTime) - 1
      loops += whole
      time -= loopTime * whole
      step.dueFrames += whole * length
    }
    while time >= duration(at: target) {
      let next = (target + 1) % length
      if next == 0 && loopCount > 0 && completedLoops + loops + 1 >= loopCount {
        // The last loop ends on its end frame: a bounce comes back to 0.
        loops += 1
        step.finished = true
        let end = storedMode == .bounce ? 0 : length - 1
        if end != target { step.dueFrames += 1 }
        target = end
        time = .zero
        break
      }
      time -= duration(at: target)
      if next == 0 { loops += 1 }
      target = next
      step.dueFrames += 1
    }
    if step.finished {
      loops = min(loops, max(1, loopCount - completedLoops))
    }
    let shown = frame(at: target)
    guard shown == frame || isReady(shown, heading(at: target)) else {
      // Not decoded yet: hold the current frame at the end of its time.
      elapsedInFrame = duration(at: position)
      step = PlaybackStep()
      step.waitingForFrame = true
      return step
    }
    step.completedLoops = loops
    completedLoops += loops
    isFinished = step.finished
    if shown != frame {
      step.shownFrame = shown
      step.skippedFrames = max(0, step.dueFrames - 1)
    }
    position = target
    elapsedInFrame = time
    return step
  }

  /// Shows `frame` from its start (clamped to the frames there are),
  /// keeping the loops played; a finished playback plays again. In a
  /// bounce it keeps the way it was going.
  public mutating func seek(toFrame frame: Int) {
    let clamped = min(max(0, frame), timeline.frameCount - 1)
    position = position(of: clamped, backward: heading.isBackward)
    elapsedInFrame = .zero
    isFinished = false
  }

  /// Moves `count` frames along the mode's order (back when negative),
  /// wrapping around the loop, and shows that frame from its start: a
  /// scrubber's step. No loop is counted; a finished playback plays again.
  public mutating func step(by count: Int) {
    let length = loopLength
    position = ((position + count) % length + length) % length
    elapsedInFrame = .zero
    isFinished = false
  }

  /// Back to the mode's first frame, no loops played (the mode and the
  /// loop-count override stay).
  public mutating func reset() {
    self = PlaybackState(timeline: timeline, mode: storedMode, loopCountOverride: loopCountOverride)
  }

  /// The frame the loop shows at `position`.
  private func frame(at position: Int) -> Int {
    let n = timeline.frameCount
    switch storedMode {
    case .forward: return position
    case .reverse: return n - 1 - position
    case .bounce: return position < n ? position : 2 * n - 2 - position
    }
  }

  private func heading(at position: Int) -> PlaybackHeading {
    PlaybackHeading(mode: storedMode, isBackward: position >= timeline.frameCount - 1)
  }

  /// Where `frame` is in the loop; a bounce moving `backward` finds it on
  /// the way back.
  private func position(of frame: Int, backward: Bool) -> Int {
    let n = timeline.frameCount
    switch storedMode {
    case .forward: return frame
    case .reverse: return n - 1 - frame
    case .bounce: return backward && frame > 0 && frame < n - 1 ? 2 * n - 2 - frame : frame
    }
  }

  private func duration(at position: Int) -> Duration {
    timeline.durations[frame(at: position)]
  }
}
