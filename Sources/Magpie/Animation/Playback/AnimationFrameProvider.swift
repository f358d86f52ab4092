/// Where a player gets its decoded frames. Asking never blocks: a frame
/// not decoded yet is `nil` (and the provider may start decoding it), and
/// the player keeps showing the frame it has.
public protocol AnimationFrameProvider: AnyObject, Sendable {
  /// Frame `index` if it is ready now.
  func frameIfReady(_ index: Int) -> PixelBuffer?
}
