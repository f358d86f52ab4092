/// What a video's container says about it, for an image made from one of
/// its frames (a poster): how long it runs and how fast it plays.
public struct VideoMetadata: Sendable, Hashable {
  /// How long the video runs; `nil` when the container does not say.
  public var duration: Duration?
  /// Frames a second; `nil` when the stream does not say.
  public var frameRate: Double?
  /// The video codec's short name (`h264`, `vp9`, `hevc`...).
  public var codec: String
  /// The frame's time in the video, for a poster taken after the start.
  public var frameTime: Duration

  /// Creates a record.
  public init(duration: Duration?, frameRate: Double?, codec: String, frameTime: Duration = .zero) {
    self.duration = duration
    self.frameRate = frameRate
    self.codec = codec
    self.frameTime = frameTime
  }
}
