/// One frame of an image: the full canvas as it is shown, and how long.
public struct ImageFrame: Sendable, Equatable {
  /// The composited canvas for this frame, upright.
  public var pixels: PixelBuffer
  /// How long the frame stays on screen, as browsers play it; zero for a
  /// still image.
  public var duration: Duration

  /// Creates a frame showing `pixels` for `duration`.
  public init(pixels: PixelBuffer, duration: Duration = .zero) {
    self.pixels = pixels
    self.duration = duration
  }

  /// The duration in whole milliseconds.
  public var durationMilliseconds: Int { duration.wholeMilliseconds }
}

extension ImageFrame {
  /// A frame delay as browsers play it: 10 ms or less becomes 100 ms, so
  /// animations that ask for "as fast as possible" do not spin.
  public static func browserDuration(milliseconds: Int) -> Duration {
    milliseconds <= 10 ? .milliseconds(100) : .milliseconds(milliseconds)
  }
}
