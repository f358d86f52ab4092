/// An animation's frames in order, each decoded when it is asked for: what
/// ``EncodingFrames`` reads from an ``AnimatedImage``.
struct SequentialFrames {
  private let decode: (Int) throws(MagpieError) -> PixelBuffer
  private let durations: [Duration]
  private var index = 0

  /// Frames from `decode`, as many as `durations`, each shown that long.
  init(decode: @escaping (Int) throws(MagpieError) -> PixelBuffer, durations: [Duration]) {
    self.decode = decode
    self.durations = durations
  }

  /// The next frame, `nil` after the last.
  mutating func next() throws(MagpieError) -> ImageFrame? {
    guard index < durations.count else { return nil }
    let pixels = try decode(index)
    defer { index += 1 }
    return ImageFrame(pixels: pixels, duration: durations[index])
  }
}
