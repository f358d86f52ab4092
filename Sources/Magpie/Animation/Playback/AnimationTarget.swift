/// What shows an animation: an image view, a GTK picture, a test's
/// recorder. Called from the frame clock's thread; a UI target hops to its
/// main loop if it must.
public protocol AnimationTarget: AnyObject, Sendable {
  /// Shows frame `index` (straight alpha, canvas-sized).
  func show(_ frame: PixelBuffer, index: Int)
}
