import CJXL
import Foundation
import Magpie

/// Decodes a JPEG XL animation's frames on demand with one libjxl decoder
/// kept between calls. Frames are coalesced full canvases, so asking in
/// order decodes each once; asking for an earlier frame rewinds
/// (`JxlDecoderRewind`) and a later one skips forward
/// (`JxlDecoderSkipFrames`), libjxl decoding only what the frame asked for
/// is drawn over. The pixels are the eager decode's, byte for byte.
final class JXLFrameSource: ImageFrameSource {
  let canvasSize: PixelSize
  let loopCount: Int
  let colorProfile: ColorProfile?
  private let durations: [Duration]
  private let data: Data
  private let keepsOrientation: Bool
  /// Each ``frame(at:)`` call's time limit.
  private let options: DecodeOptions
  private var session: JXLSession
  /// The frame the session emits next.
  private var position = 0

  var frameCount: Int { durations.count }

  private init(data: Data, header: JXLHeader, options: DecodeOptions) throws(MagpieError) {
    let keepsOrientation = !options.appliesOrientation
    self.data = data
    self.options = options
    self.keepsOrientation = keepsOrientation
    canvasSize = header.canvas(keepsOrientation: keepsOrientation)
    loopCount = header.loopCount
    colorProfile = header.colorProfile
    durations = header.durations
    session = try JXLSession(data, events: [JXL_DEC_FRAME, JXL_DEC_FULL_IMAGE], keepsOrientation: keepsOrientation)
  }

  /// A source for the animation in `data`, `nil` for a still; reads the
  /// headers and checks the pixel limit against the canvas.
  static func make(data: Data, options: DecodeOptions) throws(MagpieError) -> JXLFrameSource? {
    let header = try JXLHeader.read(data, limits: options)
    guard header.isAnimated, header.durations.count > 1 else { return nil }
    let canvas = header.canvas(keepsOrientation: !options.appliesOrientation)
    try options.checkPixelLimit(decoded: canvas, declared: canvas)
    return try JXLFrameSource(data: data, header: header, options: options)
  }

  func duration(ofFrame index: Int) -> Duration { durations[index] }

  func frame(at index: Int) throws(MagpieError) -> PixelBuffer {
    guard durations.indices.contains(index) else {
      throw MagpieError(.invalidArgument, "frame \(index) outside 0..<\(frameCount)")
    }
    if index < position {
      session.rewind()
      position = 0
    }
    if index > position {
      session.skipFrames(index - position)
      position = index
    }
    do throws(MagpieError) {
      // libjxl decodes the frame in one call: checked before it.
      try options.startDeadline().check("jxl frame \(index + 1)")
      let reader = JXLFrameReader(canvas: canvasSize, allowsPartial: false)
      guard let frame = try reader.next(from: session) else {
        throw MagpieError(.truncatedData, "jxl: frame \(index) is missing")
      }
      position = index + 1
      return frame.pixels
    } catch {
      // A failed decoder is started again, so other frames still decode.
      session = try JXLSession(data, events: [JXL_DEC_FRAME, JXL_DEC_FULL_IMAGE], keepsOrientation: keepsOrientation)
      position = 0
      throw error
    }
  }
}
