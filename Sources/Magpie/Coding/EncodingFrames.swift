import Foundation

/// The frames an encoder writes, one at a time: an image's decoded frames,
/// or an animation's frames decoded from its frame source as the encoder
/// asks for them, so an animation converts holding only the frames the
/// encoder looks at (never all of them).
package struct EncodingFrames {
  /// How many frames there are.
  package let count: Int
  /// The size of every frame.
  package let size: PixelSize
  /// How many times the animation plays (0: forever).
  package let loopCount: Int
  /// Whether every frame is opaque, when that is known without decoding
  /// them (the decoded frames say so; frames still to be decoded do not).
  package let allOpaque: Bool?
  private var produce: () throws(MagpieError) -> ImageFrame?

  /// The frames of `image` to encode: only the first with
  /// `firstFrameOnly`, else every decoded frame, or every frame of its
  /// ``Image/animation``. Throws what making the frame source throws.
  package init(_ image: Image, firstFrameOnly: Bool) throws(MagpieError) {
    size = image.pixelSize
    if let animation = image.animation, !firstFrameOnly {
      count = animation.timeline.frameCount
      loopCount = image.loopCount
      allOpaque = nil
      var reader = try animation.sequentialFrames()
      produce = { () throws(MagpieError) in try reader.next() }
      return
    }
    let frames = firstFrameOnly ? [image.frames[0]] : image.frames
    count = frames.count
    loopCount = image.loopCount
    allOpaque = frames.allSatisfy { $0.pixels.isOpaque }
    var index = 0
    produce = {
      guard index < frames.count else { return nil }
      defer { index += 1 }
      return frames[index]
    }
  }

  /// The next frame, `nil` after the last; throws what decoding it throws.
  package mutating func next() throws(MagpieError) -> ImageFrame? {
    try produce()
  }
}
