/// What one tick of playback did.
public struct PlaybackStep: Sendable, Equatable {
  /// The frame to show now, when it changed.
  public var shownFrame: Int?
  /// Frames that came due and passed before this tick (late ticks skip
  /// them instead of slowing the animation down).
  public var skippedFrames = 0
  /// Frames that came due in all (shown or skipped).
  public var dueFrames = 0
  /// Loops completed during this tick.
  public var completedLoops = 0
  /// The last loop ended: playback stopped on the last frame.
  public var finished = false
  /// The next frame was due but not decoded yet: the current one stays.
  public var waitingForFrame = false

  /// A step that changed nothing.
  public init() {}
}
