/// Where a player gets its decoded frames. Asking never blocks: a frame
/// not decoded yet is `nil` (and the provider may start decoding it), and
/// the player keeps showing the frame it has.
public protocol AnimationFrameProvider: AnyObject, Sendable {
  /// Frame `index` if it is ready now.
  func frameIfReady(_ index: Int) -> PixelBuffer?

  /// Frame `index` if it is ready now, playback going on from it along
  /// `heading`: a provider that decodes ahead decodes that way. The
  /// default ignores the heading.
  func frameIfReady(_ index: Int, heading: PlaybackHeading) -> PixelBuffer?

  /// Drops the frames decoded so far (the player was stopped with
  /// ``AnimationPlayer/clearsBufferWhenStopped``); asking for a frame
  /// later decodes again. The default does nothing.
  func dropDecodedFrames()
}

extension AnimationFrameProvider {
  /// Frame `index` if it is ready now, whatever the heading.
  public func frameIfReady(_ index: Int, heading: PlaybackHeading) -> PixelBuffer? {
    frameIfReady(index)
  }

  /// Keeps every frame: a provider holding decoded frames has nothing to drop.
  public func dropDecodedFrames() {}
}
