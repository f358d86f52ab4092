import CWebP
import Foundation

/// An animated WebP decoded frame by frame on demand: the frame source
/// ``WebPCoder/frameSource(for:options:)`` makes.
///
/// libwebpdemux indexes the frames once when the source is made; each frame
/// is then decoded on its own and drawn on the canvas the source keeps with
/// the same code as ``WebPCoder/decode(_:options:)`` (exact straight-alpha
/// "over", see `WebPAnimationDecoder`). Keyframes follow libwebp's
/// `IsKeyFrame` (see `KeyframeIndex`): the first frame; a frame that
/// covers the canvas and is drawn without blending or has no alpha; a frame
/// after one disposed to background that covered the canvas or was itself
/// drawn on a transparent canvas.
///
/// Not `Sendable`; see ``ImageFrameSource``.
public final class WebPFrameSource: ImageFrameSource {
  /// The encoded WebP.
  public let data: Data
  /// The canvas, turned upright when the EXIF orientation is applied.
  public let canvasSize: PixelSize
  /// How many frames the animation has.
  public var frameCount: Int { durations.count }
  /// The stored loop count (0 = forever).
  public var loopCount: Int { container.loopCount }
  /// The profile of the file's ICCP chunk, `nil` without one.
  public var colorProfile: ColorProfile? { container.colorProfile }

  /// How many frames have been decoded, for tests that check how far a
  /// request went back.
  private(set) var decodedFrameCount = 0

  private let bytes: OwnedBytes
  private let container: WebPContainer
  private let options: DecodeOptions
  private let turn: ImageOrientation
  private let durations: [Int]
  private let keyframes: KeyframeIndex
  private var compositor: APNGCompositor
  private var cursor: ForwardFrameCursor

  private init(bytes: OwnedBytes, container: WebPContainer, options: DecodeOptions) throws(MagpieError) {
    self.data = bytes.data
    self.bytes = bytes
    self.container = container
    self.options = options
    let stored = PixelSize(width: container.width, height: container.height)
    turn = options.appliesOrientation ? container.orientation : .up
    canvasSize = turn.displayedSize(of: stored)
    var durations: [Int] = []
    var facts: [KeyframeIndex.Frame] = []
    try container.forEachFrame(upTo: container.frameCount) { (frame) throws(MagpieError) in
      durations.append(Int(frame.duration))
      let covers =
        frame.x_offset == 0 && frame.y_offset == 0 && Int(frame.width) == stored.width
        && Int(frame.height) == stored.height
      facts.append(
        KeyframeIndex.Frame(
          coversCanvas: covers, replacesRectangle: frame.blend_method == WEBP_MUX_NO_BLEND || frame.has_alpha == 0,
          disposal: frame.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND ? .clear : .keep))
    }
    self.durations = durations
    keyframes = KeyframeIndex(facts)
    compositor = APNGCompositor(size: stored)

    cursor = ForwardFrameCursor(keyframes: keyframes, turn: turn)
  }

  /// A source for `data` when it is an animated WebP of more than one
  /// frame, `nil` for a still. Checks the canvas against
  /// `options.maxPixelCount` before returning.
  static func make(data: Data, options: DecodeOptions) throws(MagpieError) -> WebPFrameSource? {
    // A still is told from the container alone, before any copy is made.
    let isAnimation = try WebPContainer.withContainer(data) { container, _ throws(MagpieError) -> Bool in
      container.isAnimated && container.frameCount > 1
    }
    guard isAnimation else { return nil }
    let bytes = OwnedBytes.holding(data)
    let container = try WebPContainer(bytes: bytes.bytes)
    guard container.isAnimated && container.frameCount > 1 else { return nil }
    let canvas = PixelSize(width: container.width, height: container.height)
    try options.checkPixelLimit(decoded: canvas, declared: canvas)
    try options.checkFrameCount(container.frameCount, format: "webp")
    return try WebPFrameSource(bytes: bytes, container: container, options: options)
  }

  /// The frame's stored duration as browsers play it.
  public func duration(ofFrame index: Int) -> Duration {
    ImageFrame.browserDuration(milliseconds: durations[index])
  }

  /// Frame `index`, composited; see ``ImageFrameSource/frame(at:)``.
  public func frame(at index: Int) throws(MagpieError) -> PixelBuffer {
    guard index >= 0 && index < frameCount else {
      throw MagpieError(.invalidArgument, "webp frame \(index) is not in 0..<\(frameCount)")
    }
    let deadline = options.startDeadline()
    return try cursor.frame(
      at: index,
      restart: { atFirstFrame in compositor = APNGCompositor(size: compositor.size, startsAtFirstFrame: atFirstFrame) },
      draw: { (next) throws(MagpieError) in
        try deadline.check("webp frame \(next + 1)")
        return try draw(next)
      })
  }

  /// Decodes frame `index` and draws it; returns the canvas as shown.
  private func draw(_ index: Int) throws(MagpieError) -> PixelBuffer {
    decodedFrameCount += 1
    let options = options
    let container = container
    return try container.withFrame(at: index) { (frame) throws(MagpieError) -> PixelBuffer in
      let control = try WebPAnimationDecoder.control(of: frame, index: index, in: container)
      let pixels = try WebPAnimationDecoder.pixels(of: frame, index: index, control: control, options: options)
      return compositor.render(pixels, control: control)
    }
  }
}
