/// The order an animation's frames play in (SDWebImage's
/// `SDAnimatedImagePlaybackMode`).
///
/// One loop is: ``forward``, frames `0...n-1`; ``reverse``, frames
/// `n-1...0`; ``bounce``, frames `0...n-1` then back `n-2...1`, so the end
/// frames are not shown twice at a turnaround and the next loop starts
/// again at frame 0. The last loop of a finite animation ends on frame
/// `n-1` (forward) or frame 0 (reverse, and bounce, which comes back to
/// where it started).
public enum PlaybackMode: String, Sendable, Hashable, CaseIterable {
  /// First frame to last, as the file says.
  case forward
  /// Last frame to first.
  case reverse
  /// First to last and back again, without repeating the end frames.
  case bounce
}
