/// What a player has done so far, for checking playback from outside.
public struct PlaybackStatistics: Sendable, Equatable {
  /// Frames whose time came (shown or skipped).
  public var dueFrames = 0
  /// Frames shown at the tick they came due.
  public var framesOnTime = 0
  /// Frames passed over by late ticks.
  public var skippedFrames = 0
  /// Ticks at which the due frame was not decoded yet.
  public var waits = 0
  /// Loops played to the end.
  public var completedLoops = 0

  /// No playback yet.
  public init() {}

  mutating func record(_ step: PlaybackStep) {
    dueFrames += step.dueFrames
    skippedFrames += step.skippedFrames
    if step.shownFrame != nil { framesOnTime += 1 }
    if step.waitingForFrame { waits += 1 }
    completedLoops += step.completedLoops
  }
}
