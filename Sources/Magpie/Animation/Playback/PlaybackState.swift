/// Playback as a value: which frame is shown, how long it has been shown,
/// how many loops are done. ``advance(by:isReady:)`` takes the time since
/// the last tick and returns what to do, so the timing rules are tested
/// synchronously (``AnimationPlayer`` keeps one behind its lock).
///
/// The rules (FLAnimatedImageView's, with SDWebImage's skipping): time
/// accumulates and frames advance by their durations; a late tick skips
/// the frames whose time has passed rather than slowing down; a frame not
/// decoded yet holds the current one, and the animation resumes from there
/// once it is ready; the last frame of the last loop stays.
public struct PlaybackState: Sendable, Equatable {
  /// The frames' durations and loop count.
  public let timeline: AnimationTimeline
  /// The frame shown.
  public private(set) var frame = 0
  /// How long it has been shown.
  public private(set) var elapsedInFrame: Duration = .zero
  /// Loops played to the end.
  public private(set) var completedLoops = 0
  /// Whether the last loop has ended.
  public private(set) var isFinished = false

  /// Playback of `timeline` from its first frame.
  public init(timeline: AnimationTimeline) {
    self.timeline = timeline
  }

  /// Advances by `elapsed` (already scaled by the playback rate). `isReady`
  /// says whether a frame can be shown now; only the frame that ends up
  /// shown is asked.
  public mutating func advance(by elapsed: Duration, isReady: (Int) -> Bool) -> PlaybackStep {
    var step = PlaybackStep()
    guard !isFinished, timeline.frameCount > 1, elapsed > .zero else { return step }
    var time = elapsedInFrame + elapsed
    var target = frame
    var loops = 0
    // Whole loops at once, so an hour-long stall costs no hour of steps.
    if time >= timeline.loopDuration * 2 {
      let whole = Int(time / timeline.loopDuration) - 1
      loops += whole
      time -= timeline.loopDuration * whole
      step.dueFrames += whole * timeline.frameCount
    }
    while time >= timeline.durations[target] {
      let next = (target + 1) % timeline.frameCount
      if next == 0 && timeline.loopCount > 0 && completedLoops + loops + 1 >= timeline.loopCount {
        // The last loop ends on its last frame.
        loops += 1
        step.finished = true
        target = timeline.frameCount - 1
        time = .zero
        break
      }
      time -= timeline.durations[target]
      if next == 0 { loops += 1 }
      target = next
      step.dueFrames += 1
    }
    if step.finished && timeline.loopCount > 0 {
      loops = min(loops, timeline.loopCount - completedLoops)
    }
    guard target == frame || isReady(target) else {
      // Not decoded yet: hold the current frame at the end of its time.
      elapsedInFrame = timeline.durations[frame]
      step = PlaybackStep()
      step.waitingForFrame = true
      return step
    }
    step.completedLoops = loops
    completedLoops += loops
    isFinished = step.finished
    if target != frame {
      step.shownFrame = target
      step.skippedFrames = max(0, step.dueFrames - 1)
    }
    frame = target
    elapsedInFrame = time
    return step
  }

  /// Shows `frame` from its start (clamped to the frames there are),
  /// keeping the loops played; a finished playback plays again.
  public mutating func seek(toFrame frame: Int) {
    self.frame = min(max(0, frame), timeline.frameCount - 1)
    elapsedInFrame = .zero
    isFinished = false
  }

  /// Back to the first frame, no loops played.
  public mutating func reset() {
    self = PlaybackState(timeline: timeline)
  }
}
