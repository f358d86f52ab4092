/// Where playback goes from the frame it shows: its mode and, in a
/// bounce, which way it moves now. A frame buffer decodes ahead along it.
public struct PlaybackHeading: Sendable, Hashable {
  /// The order frames play in.
  public var mode: PlaybackMode
  /// Whether playback moves towards frame 0 now (always in ``PlaybackMode/reverse``,
  /// on the way back in ``PlaybackMode/bounce``).
  public var isBackward: Bool

  /// Plain forward playback: what a provider assumes when told nothing.
  public static let forward = PlaybackHeading(mode: .forward, isBackward: false)

  /// Playback in `mode`, moving backward when `isBackward` (ignored except
  /// in a bounce: forward never does and reverse always does).
  public init(mode: PlaybackMode, isBackward: Bool = false) {
    self.mode = mode
    switch mode {
    case .forward: self.isBackward = false
    case .reverse: self.isBackward = true
    case .bounce: self.isBackward = isBackward
    }
  }

  /// Up to `count` different frames of a `frameCount`-frame animation in
  /// the order playback reaches them from `anchor` (first): wrapping at
  /// the ends forward and in reverse, turning around in a bounce.
  public func upcomingFrames(from anchor: Int, count: Int, frameCount: Int) -> [Int] {
    let wanted = min(max(0, count), frameCount)
    var frames: [Int] = []
    frames.reserveCapacity(wanted)
    switch mode {
    case .forward, .reverse:
      let step = isBackward ? -1 : 1
      for offset in 0..<wanted { frames.append(((anchor + step * offset) % frameCount + frameCount) % frameCount) }
    case .bounce:
      guard wanted > 0 else { return [] }
      var seen = Set<Int>()
      var frame = anchor
      var backward = isBackward
      while frames.count < wanted {
        if seen.insert(frame).inserted { frames.append(frame) }
        if frameCount == 1 { break }
        if backward && frame == 0 { backward = false }
        if !backward && frame == frameCount - 1 { backward = true }
        frame += backward ? -1 : 1
      }
    }
    return frames
  }
}
