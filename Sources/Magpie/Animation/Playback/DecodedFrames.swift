/// The frames of an image decoded whole, as a provider: every frame is
/// always ready. For animations small enough to hold.
public final class DecodedFrames: AnimationFrameProvider {
  private let frames: [ImageFrame]

  /// The frames of `image`.
  public init(_ image: Image) {
    frames = image.frames
  }

  /// Frame `index`; `nil` past the last one.
  public func frameIfReady(_ index: Int) -> PixelBuffer? {
    frames.indices.contains(index) ? frames[index].pixels : nil
  }
}
