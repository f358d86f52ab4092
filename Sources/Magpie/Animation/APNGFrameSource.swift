import Foundation

/// An APNG animation decoded frame by frame on demand: the frame source
/// ``PNGCoder/frameSource(for:options:)`` makes.
///
/// The chunks are indexed once when the source is made (`APNGAnimation`:
/// every frame's fcTL and data chunks, checked as the eager decode checks
/// them); each frame is then rebuilt and decoded on its own and drawn on
/// the canvas the source keeps, with the same code as
/// ``PNGCoder/decode(_:options:)``. A frame is a keyframe (see
/// `KeyframeIndex`) after a frame disposed to background over the whole
/// canvas or onto a transparent canvas, or when it covers the canvas with
/// blend op source and is not disposed to previous. A default image that is
/// not part of the animation is never decoded.
///
/// Not `Sendable`; see ``ImageFrameSource``.
public final class APNGFrameSource: ImageFrameSource {
  /// The encoded APNG.
  public let data: Data
  /// The IHDR size, turned upright when the eXIf orientation is applied.
  public let canvasSize: PixelSize
  /// How many frames the animation has (as acTL declares and the file holds).
  public var frameCount: Int { animation.frames.count }
  /// `num_plays`: 0 for forever.
  public var loopCount: Int { animation.loopCount }
  /// The profile of the APNG's iCCP (or cHRM and gAMA) chunks, `nil` for sRGB or untagged.
  public let colorProfile: ColorProfile?

  /// How many frames have been decoded, for tests that check how far a
  /// request went back.
  private(set) var decodedFrameCount = 0

  private let bytes: OwnedBytes
  private let header: PNGHeader
  private let animation: APNGAnimation
  private let turn: ImageOrientation
  private let usesFastPath: Bool
  /// Each ``frame(at:)`` call's time limit.
  private let options: DecodeOptions
  private let keyframes: KeyframeIndex
  private var compositor: APNGCompositor
  private var cursor: ForwardFrameCursor

  private init(
    bytes: OwnedBytes, header: PNGHeader, animation: APNGAnimation, turn: ImageOrientation,
    usesFastPath: Bool, colorProfile: ColorProfile?, options: DecodeOptions
  ) {
    self.colorProfile = colorProfile
    self.options = options
    self.data = bytes.data
    self.bytes = bytes
    self.header = header
    self.animation = animation
    self.turn = turn
    self.usesFastPath = usesFastPath
    canvasSize = turn.displayedSize(of: header.size)
    let canvas = header.size
    keyframes = KeyframeIndex(
      animation.frames.enumerated().map { index, frame in Self.facts(of: frame.control, index: index, canvas: canvas) })
    compositor = APNGCompositor(size: canvas)

    cursor = ForwardFrameCursor(keyframes: keyframes, turn: turn)
  }

  /// A source for `data` when it is an APNG that plays as an animation,
  /// `nil` for a still PNG or an APNG that shows as a still (see
  /// ``APNGAnimation``). Checks the canvas against `options.maxPixelCount`
  /// and every chunk of the animation before returning.
  static func make(data: Data, options: DecodeOptions, usesFastPath: Bool) throws(MagpieError) -> APNGFrameSource? {
    let isAnimated = try PNGCoder.withBytes(of: data) { bytes throws(MagpieError) -> Bool in
      PNGPreamble(scanning: bytes).isAnimated
    }
    guard isAnimated else { return nil }
    let bytes = OwnedBytes.holding(data)
    let preamble = PNGPreamble(scanning: bytes.bytes)
    let header = try PNGCoder.readHeader(of: PNGReader(bytes.bytes), preamble: preamble)
    try options.checkPixelLimit(decoded: header.size, declared: header.size)
    let animation = try APNGAnimation(parsing: bytes.bytes, canvas: header.size)
    guard animation.stillReason == nil, !animation.frames.isEmpty else { return nil }
    try options.checkFrameCount(animation.frames.count, format: "apng")
    return APNGFrameSource(
      bytes: bytes, header: header, animation: animation,
      turn: options.appliesOrientation ? preamble.orientation : .up, usesFastPath: usesFastPath,
      colorProfile: preamble.colorProfile, options: options)
  }

  /// The frame's fcTL delay as browsers play it.
  public func duration(ofFrame index: Int) -> Duration { animation.frames[index].control.duration }

  /// Frame `index`, composited; see ``ImageFrameSource/frame(at:)``.
  public func frame(at index: Int) throws(MagpieError) -> PixelBuffer {
    guard index >= 0 && index < frameCount else {
      throw MagpieError(.invalidArgument, "APNG frame \(index) is not in 0..<\(frameCount)")
    }
    let deadline = options.startDeadline()
    return try cursor.frame(
      at: index,
      restart: { atFirstFrame in compositor = APNGCompositor(size: header.size, startsAtFirstFrame: atFirstFrame) },
      draw: { (next) throws(MagpieError) in
        try deadline.check("APNG frame \(next)")
        return try draw(next)
      })
  }

  /// Decodes frame `index` and draws it; returns the canvas as shown.
  private func draw(_ index: Int) throws(MagpieError) -> PixelBuffer {
    let frame = animation.frames[index]
    decodedFrameCount += 1
    let bytes = bytes.bytes
    let usesFastPath = usesFastPath
    let pixels = try APNGDecoder.pixels(
      of: frame, index: index, animation: animation, in: bytes, header: header, usesFastPath: usesFastPath
    ) { () throws(MagpieError) -> PixelBuffer in
      let reader = try PNGReader(bytes, usesFastPath: usesFastPath)
      _ = try reader.readHeader()
      return try reader.readPixels()
    }
    return compositor.render(pixels, control: frame.control)
  }

  /// What ``KeyframeIndex`` needs to know of frame `index`, as
  /// ``APNGCompositor`` draws and disposes it.
  private static func facts(of control: APNGFrameControl, index: Int, canvas: PixelSize) -> KeyframeIndex.Frame {
    let disposal: KeyframeIndex.Disposal
    switch control.disposeOp {
    case .none: disposal = .keep
    case .background: disposal = .clear
    // "previous" on the first frame is "background" (the specification).
    case .previous: disposal = index == 0 ? .clear : .restore
    }
    let covers = control.x == 0 && control.y == 0 && control.width == canvas.width && control.height == canvas.height
    return KeyframeIndex.Frame(coversCanvas: covers, replacesRectangle: control.blendOp == .source, disposal: disposal)
  }
}
