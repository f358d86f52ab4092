import Foundation

/// A decoding session over one animation's encoded bytes that decodes frame
/// N on demand, instead of every frame up front as
/// ``ImageCoder/decode(_:options:)`` does.
///
/// A source keeps its own copy of the encoded bytes and the decoder state
/// between calls (the compositor's canvas and what the previous frame's
/// disposal left), so asking for the frames in order decodes each once.
/// Asking out of order decodes forward from the current position when it is
/// before the frame asked for, else from the nearest earlier keyframe (a
/// frame that needs nothing drawn before it), never from the start of the
/// file each time.
///
/// Everything but ``frame(at:)`` is read from the headers when the source
/// is made, without decoding any pixels. ``DecodeOptions/maxPixelCount`` is
/// checked against the canvas then, and ``DecodeOptions/maxFrameCount``
/// against the frame count; ``DecodeOptions/maxTotalByteCount`` is not,
/// since a source holds one canvas, not every frame. Each ``frame(at:)``
/// call decodes within ``DecodeOptions/decodeTimeLimit``.
///
/// A source is not `Sendable`: its decoder state changes with every call.
/// One owner uses it at a time; to use it on another executor, hand it over
/// (a `sending` parameter or result) and stop using it where it was.
///
/// Get one from ``CoderRegistry/frameSource(for:options:)`` or a coder's
/// ``ImageCoder/frameSource(for:options:)``; a coder of your own can
/// provide one by conforming a type of its own.
public protocol ImageFrameSource: AnyObject {
  /// The size of every frame, upright (the coder's orientation rule applied
  /// as the eager decode applies it).
  var canvasSize: PixelSize { get }

  /// How many frames the animation has.
  var frameCount: Int { get }

  /// How many times the animation plays, 0 for forever; the same value as
  /// ``Image/loopCount`` from the eager decode.
  var loopCount: Int { get }

  /// How long frame `index` shows: the same duration the eager decode puts
  /// in ``ImageFrame/duration`` (browser rules applied, such as
  /// ``ImageFrame/browserDuration(milliseconds:)``).
  func duration(ofFrame index: Int) -> Duration

  /// Frame `index` (0 is the first) as it is shown: the whole canvas,
  /// composited, straight alpha, byte for byte the eager decode's
  /// `Image.frames[index].pixels`.
  ///
  /// Throws ``MagpieError/Code/invalidArgument`` for an index outside
  /// `0..<frameCount`, and ``MagpieError/Code/truncatedData`` or
  /// ``MagpieError/Code/corruptData`` when the frame, or one it is drawn
  /// over, is damaged; the source stays usable for other frames.
  func frame(at index: Int) throws(MagpieError) -> PixelBuffer

  /// The colour profile the frames' pixels are in (see
  /// ``Image/colorProfile``); `nil`, the default, for sRGB or untagged.
  var colorProfile: ColorProfile? { get }
}

extension ImageFrameSource {
  /// The colour profile every frame's pixels are in, as the eager decode
  /// puts it in ``Image/colorProfile``; `nil` (sRGB) by default.
  public var colorProfile: ColorProfile? { nil }
}
