import Foundation
import Magpie

/// An AVIF image sequence (`avis`) decoded frame by frame on demand: the
/// frame source ``AVIFCoder/frameSource(for:options:)`` makes.
///
/// AV1 frames depend on earlier ones back to a keyframe (a sync sample), so
/// libavif's `avifDecoderNthImage` decodes forward from where the decoder
/// is when that is before the frame asked for, else from the nearest
/// keyframe at or before it: the rule `ImageFrameSource` asks for. Each
/// frame covers the whole canvas (AVIF sequences have no compositing), so
/// the pixels are the decoded frame, clean aperture and orientation
/// applied as ``AVIFCoder/decode(_:options:)`` applies them.
///
/// Not `Sendable`; see `ImageFrameSource`.
public final class AVIFFrameSource: ImageFrameSource {
  /// The upright canvas (clean aperture, then orientation when applied).
  public let canvasSize: PixelSize
  /// How many frames the sequence has.
  public var frameCount: Int { decoding.frameCount }
  /// Always 0 (forever): libavif 0.11 reads no repetition count from the
  /// file, so every sequence loops, as browsers play them.
  public var loopCount: Int { 0 }
  /// The ICC profile the frames are in, as the eager decode sets
  /// `Image.colorProfile`; `nil` for CICP-only (nclx) or untagged files.
  public var colorProfile: ColorProfile? { decoding.header.colorProfile }

  private let decoding: AVIFDecoding
  private let turn: ImageOrientation
  private let options: DecodeOptions
  private var last: (index: Int, pixels: PixelBuffer)?

  /// A source over `decoding`, which has more than one frame.
  init(decoding: AVIFDecoding, options: DecodeOptions) {
    self.decoding = decoding
    self.options = options
    turn = options.appliesOrientation ? decoding.header.orientation : .up
    canvasSize = turn.displayedSize(of: decoding.croppedSize)
  }

  /// The frame's stored duration as browsers play it.
  public func duration(ofFrame index: Int) -> Duration {
    ImageFrame.browserDuration(milliseconds: decoding.header.durations[index])
  }

  /// Frame `index`; see `ImageFrameSource.frame(at:)`.
  public func frame(at index: Int) throws(MagpieError) -> PixelBuffer {
    guard index >= 0 && index < frameCount else {
      throw MagpieError(.invalidArgument, "avif frame \(index) is not in 0..<\(frameCount)")
    }
    // Asking for the frame just returned again costs nothing.
    if let last, last.index == index { return last.pixels }
    last = nil
    // libavif decodes forward to the frame in one call: checked before it.
    try options.startDeadline().check("avif frame \(index + 1)")
    let pixels = try decoding.frame(at: index).applying(turn)
    last = (index, pixels)
    return pixels
  }
}
