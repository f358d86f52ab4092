import Foundation

/// A GIF animation decoded frame by frame on demand: the frame source
/// ``GIFCoder/frameSource(for:options:)`` makes.
///
/// The records are walked once when the source is made (the delays, loop
/// count, each frame's rectangle, disposal and transparency, and where its
/// records start); frames are then decoded with the same code as
/// ``GIFCoder/decode(_:options:)`` and composited on one canvas the source
/// keeps. A frame is a keyframe (see `KeyframeIndex`) after a frame that
/// was cleared (disposal 2) over the whole canvas or onto a transparent
/// canvas, or when it covers the canvas, has no transparent index and is
/// not restored (disposal 3) afterwards; the reader jumps straight to a
/// keyframe's records to start there.
///
/// A damaged frame after the first (its data cut short, or its LZW data
/// damaged) comes out as drawn so far, as the eager decode keeps it as its
/// partial last frame, when ``DecodeOptions/allowsPartialImage`` is set;
/// otherwise it throws ``MagpieError/Code/truncatedData`` or
/// ``MagpieError/Code/corruptData``. A frame drawn over a damaged one
/// throws either way. Not `Sendable`; see ``ImageFrameSource``.
public final class GIFFrameSource: ImageFrameSource {
  /// The encoded GIF.
  public let data: Data
  /// The logical screen (or the first frame's extent when it has none).
  public var canvasSize: PixelSize { layout.canvas }
  /// The frames the records hold, up to damage after the first.
  public var frameCount: Int { layout.frameCount }
  /// The NETSCAPE2.0 loop count, 1 when the file has none (0 = forever).
  public var loopCount: Int { layout.loopCount ?? 1 }
  /// The profile of the GIF's ICCRGBG1012 extension, `nil` without one.
  public var colorProfile: ColorProfile? { layout.colorProfile }

  /// How many frames have been decoded, for tests that check how far a
  /// request went back.
  private(set) var decodedFrameCount = 0

  private let bytes: OwnedBytes
  private let layout: GIFLayout
  private let keyframes: KeyframeIndex
  private let reader: GIFFileReader
  private let decoder: GIFFrameDecoder
  private let allowsPartialFrame: Bool
  /// The limits each ``frame(at:)`` call decodes within (its time limit).
  private let options: DecodeOptions
  /// The frame the decoder draws next; `nil` after an error, when the
  /// canvas cannot be trusted.
  private var nextIndex: Int? = 0
  /// The frame handed out last, handed out again when asked again.
  private var last: (index: Int, pixels: PixelBuffer)?

  private init(data: Data, layout: GIFLayout, options: DecodeOptions) throws(MagpieError) {
    self.allowsPartialFrame = options.allowsPartialImage
    self.options = options
    let bytes = OwnedBytes.holding(data)
    self.bytes = bytes
    self.data = bytes.data
    self.layout = layout
    let canvas = layout.canvas
    keyframes = KeyframeIndex(layout.frames.map { Self.facts(of: $0, canvas: canvas) })
    reader = try GIFFileReader(bytes: bytes.bytes)
    decoder = GIFFrameDecoder(canvas: canvas)
  }

  /// A source for `data` when it is a GIF of more than one frame, `nil`
  /// for a still. Walks the records and checks the canvas against
  /// `options.maxPixelCount` (the screen before giflib reads past the
  /// header), and the size each frame declares against the bound the eager
  /// decode puts on LZW work, before any canvas exists.
  static func make(data: Data, options: DecodeOptions) throws(MagpieError) -> GIFFrameSource? {
    if data.count >= 10 {
      let b = data.startIndex
      let screen = PixelSize(
        width: Int(data[b + 6]) | Int(data[b + 7]) << 8, height: Int(data[b + 8]) | Int(data[b + 9]) << 8)
      if screen.width > 0 && screen.height > 0 { try options.checkPixelLimit(decoded: screen, declared: screen) }
    }
    // One frame past the limit is enough to refuse the file.
    let layout = try GIFLayout(walking: data, frameLimit: options.frameCountToRefuse)
    try options.checkPixelLimit(decoded: layout.canvas, declared: layout.canvas)
    guard layout.frameCount > 1 else { return nil }
    try options.checkFrameCount(layout.frameCount, format: "gif")
    let bound = max(options.maxTotalByteCount / 2, 4 * layout.canvas.pixelCount)
    for (index, frame) in layout.frames.enumerated() where frame.width * frame.height > bound {
      throw MagpieError(
        .imageTooLarge,
        "gif frame \(index + 1) declares \(frame.width)x\(frame.height) pixels, more than the limits allow")
    }
    return try GIFFrameSource(data: data, layout: layout, options: options)
  }

  /// The frame's delay as browsers play it.
  public func duration(ofFrame index: Int) -> Duration {
    ImageFrame.browserDuration(milliseconds: layout.delays[index])
  }

  /// Frame `index`, composited; see ``ImageFrameSource/frame(at:)``.
  public func frame(at index: Int) throws(MagpieError) -> PixelBuffer {
    guard index >= 0 && index < frameCount else {
      throw MagpieError(.invalidArgument, "gif frame \(index) is not in 0..<\(frameCount)")
    }
    if let last, last.index == index { return last.pixels }
    let start = keyframes.start(toReach: index, next: nextIndex)
    if start != nextIndex {
      decoder.canvas.reset()
      reader.seek(toRecordAt: layout.recordOffsets[start], framesRead: start)
      nextIndex = start
    }
    last = nil
    let deadline = options.startDeadline()
    do throws(MagpieError) {
      while let next = nextIndex, next <= index {
        let damage = try decodeNext(next, deadline: deadline)
        nextIndex = next + 1
        // Kept as drawn so far only as the frame asked for; the canvas
        // cannot be drawn on after it.
        if let damage {
          nextIndex = nil
          if next < index { throw damage }
        }
      }
    } catch {
      nextIndex = nil
      throw error
    }
    let pixels = decoder.canvas.snapshot()
    last = (index, pixels)
    return pixels
  }

  /// Draws frame `index`; returns the damage when it is damaged and may be
  /// kept as drawn so far, throws it when it may not.
  private func decodeNext(_ index: Int, deadline: DecodeDeadline) throws(MagpieError) -> MagpieError? {
    guard let frame = try reader.nextFrame() else {
      throw reader.damage ?? MagpieError(.truncatedData, "gif data ends before frame \(index + 1)")
    }
    decodedFrameCount += 1
    let damaged = try decoder.draw(frame, index: index + 1, from: reader, deadline: deadline)
    let damage =
      reader.damage
      ?? (damaged ? MagpieError(.corruptData, "gif frame \(index + 1)'s compressed pixel data is damaged") : nil)
    guard let damage else { return nil }
    guard index > 0, allowsPartialFrame else { throw damage }
    return damage
  }

  /// What ``KeyframeIndex`` needs to know of `frame`, as ``GIFCompositor``
  /// clips and disposes it.
  private static func facts(of frame: GIFFileReader.FrameHeader, canvas: PixelSize) -> KeyframeIndex.Frame {
    let disposal: KeyframeIndex.Disposal
    switch frame.disposal {
    case 2: disposal = .clear
    case 3, 4: disposal = .restore
    default: disposal = .keep
    }
    let covers =
      frame.left == 0 && frame.top == 0 && frame.width >= canvas.width && frame.height >= canvas.height
    return KeyframeIndex.Frame(
      coversCanvas: covers, replacesRectangle: frame.transparentIndex == nil, disposal: disposal)
  }
}
