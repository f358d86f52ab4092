/// When each frame of an animation is due: its frames' durations and how
/// many times it plays. Known from an image's headers, before any frame is
/// decoded.
public struct AnimationTimeline: Sendable, Equatable {
  /// The shortest a frame is shown: a duration of zero would make the
  /// player spin without showing anything.
  public static let minimumFrameDuration = Duration.milliseconds(10)

  /// Each frame's duration, at least ``minimumFrameDuration``.
  public let durations: [Duration]
  /// How many times the animation plays; 0 means forever.
  public let loopCount: Int
  /// One loop's length.
  public let loopDuration: Duration

  /// A timeline of `durations` (raised to ``minimumFrameDuration`` where
  /// shorter), played `loopCount` times (0: forever).
  public init(durations: [Duration], loopCount: Int) {
    precondition(!durations.isEmpty, "an animation has at least one frame")
    self.durations = durations.map { max($0, Self.minimumFrameDuration) }
    self.loopCount = max(0, loopCount)
    loopDuration = self.durations.reduce(.zero, +)
  }

  /// The timeline of a decoded image: its frames' durations (browser rules
  /// already applied by the decoder: a GIF delay of 0 or 10 ms is 100 ms)
  /// and its loop count.
  public init(_ image: Image) {
    self.init(durations: image.frames.map(\.duration), loopCount: image.loopCount)
  }

  /// The timeline a frame source reads from its headers.
  public init(_ source: any ImageFrameSource) {
    self.init(durations: (0..<source.frameCount).map { source.duration(ofFrame: $0) }, loopCount: source.loopCount)
  }

  /// How many frames there are.
  public var frameCount: Int { durations.count }
}
