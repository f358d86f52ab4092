/// What an image's headers (and, for animations, its frame headers) say,
/// without decoding pixels.
public struct ImageInfo: Sendable, Equatable {
  /// The sniffed format.
  public var format: ImageFormat
  /// Size as displayed, after EXIF orientation.
  public var size: PixelSize
  /// Number of frames; 1 for still images.
  public var frameCount: Int
  /// Times an animation plays; 0 means forever, and 0 for still images.
  public var loopCount: Int
  /// Each frame's playback duration, browser rules applied; `[.zero]` for a
  /// still image.
  public var frameDurations: [Duration]
  /// The EXIF orientation the file carries.
  public var orientation: ImageOrientation
  /// Size of the encoded data in bytes.
  public var byteCount: Int
  /// A video's duration, frame rate and codec; `nil` for images.
  public var video: VideoMetadata?

  /// Creates an info record.
  public init(
    format: ImageFormat, size: PixelSize, frameCount: Int = 1, loopCount: Int = 0,
    frameDurations: [Duration] = [.zero], orientation: ImageOrientation = .up, byteCount: Int
  ) {
    self.format = format
    self.size = size
    self.frameCount = frameCount
    self.loopCount = loopCount
    self.frameDurations = frameDurations
    self.orientation = orientation
    self.byteCount = byteCount
  }
}
