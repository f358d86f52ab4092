extension DecodeOptions {
  /// The default ``maxFrameCount``: 10,000 frames. Real animations stay
  /// far below it (a long GIF has a few thousand frames; 10,000 frames at
  /// the 20 ms most browsers allow is over three minutes), while every
  /// frame costs a decoder pass and, eagerly decoded, a canvas, so a tiny
  /// file declaring millions of one-pixel frames is refused up front.
  public static let defaultMaxFrameCount = 10_000

  /// The default ``decodeTimeLimit``: 10 seconds. A 100-megapixel photo
  /// (the default pixel limit) decodes in about a second on one core, an
  /// animation at the byte limit in a few; ten times that leaves room for
  /// slow machines while a hostile file that makes a decoder spin still
  /// stops.
  ///
  /// Sanitizer builds (`make sanitize` compiles with `MAGPIE_SANITIZED`)
  /// take 10 minutes: they run 10-50 times slower with every test at once,
  /// where a wall-clock limit of seconds measures the machine's load (a
  /// ThreadSanitizer run stopped a 1234x987 JPEG at 10.7 s).
  public static let defaultDecodeTimeLimit = Duration.seconds(isSanitizedBuild ? 600 : 10)

  /// Whether this build was compiled for a sanitizer run (`MAGPIE_SANITIZED`).
  private static var isSanitizedBuild: Bool {
    #if MAGPIE_SANITIZED
      true
    #else
      false
    #endif
  }

  /// A deadline for one image's decode starting now
  /// (``decodeTimeLimit`` on ``decodeClock``).
  package func startDeadline() -> DecodeDeadline {
    DecodeDeadline(limit: decodeTimeLimit, clock: decodeClock)
  }

  /// The frame count that is one over ``maxFrameCount``: how far a walk
  /// over the frames needs to count to refuse a file.
  package var frameCountToRefuse: Int { maxFrameCount < .max ? max(maxFrameCount, 0) + 1 : .max }

  /// Throws ``MagpieError/Code/limitExceeded`` when an animation in
  /// `format` (a word for the message, such as "gif") has or declares more
  /// than ``maxFrameCount`` frames. Called with what the headers declare,
  /// before any frame is allocated or decoded.
  package func checkFrameCount(_ frameCount: Int, format: String) throws(MagpieError) {
    guard frameCount > maxFrameCount else { return }
    throw MagpieError(
      .limitExceeded, "\(format) frame count \(frameCount) exceeds maxFrameCount \(maxFrameCount)")
  }
}
