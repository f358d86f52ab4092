import Foundation

/// Decodes, and optionally encodes, one or more image formats.
///
/// Register your own with ``CoderRegistry/register(_:)`` to add a format or
/// replace a built-in coder; user coders are asked first.
public protocol ImageCoder: Sendable {
  /// Whether this coder decodes `data`, whose sniffed format is `format`
  /// (``ImageFormat/unknown`` for formats Magpie does not recognise).
  func canDecode(_ data: Data, format: ImageFormat) -> Bool

  /// Decodes every frame (or the first, as `options` say) into upright
  /// pixels whose ``PixelBuffer/alphaRepresentation`` is stated: straight
  /// alpha exactly as stored, unless ``DecodeOptions/targetSize`` means they
  /// will be resampled.
  func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image

  /// Reads size, orientation and frame timing without decoding pixels where
  /// the format allows.
  func info(of data: Data) throws(MagpieError) -> ImageInfo

  /// Whether this coder writes `format`.
  func canEncode(to format: ImageFormat) -> Bool

  /// Encodes `image` as `format`.
  func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data

  /// A session that decodes the animation in `data` one frame at a time on
  /// demand (see ``ImageFrameSource``), or `nil` when `data` is a still
  /// image or the coder decodes eagerly only. Reads the headers and checks
  /// `options.maxPixelCount` against the canvas; decodes no pixels.
  func frameSource(for data: Data, options: DecodeOptions) throws(MagpieError) -> (any ImageFrameSource)?
}

extension ImageCoder {
  /// By default a coder reads its info by decoding the image.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    let image = try decode(data, options: DecodeOptions())
    return ImageInfo(
      format: image.format, size: image.pixelSize, frameCount: image.frames.count,
      loopCount: image.loopCount, frameDurations: image.frames.map(\.duration),
      orientation: image.orientation, byteCount: data.count)
  }

  /// By default a coder has no frame source: animations decode eagerly.
  public func frameSource(for data: Data, options: DecodeOptions) throws(MagpieError) -> (any ImageFrameSource)? {
    nil
  }

  /// By default a coder only decodes.
  public func canEncode(to format: ImageFormat) -> Bool { false }

  /// By default a coder only decodes.
  public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data {
    throw MagpieError(.encodingFailed, "\(Self.self) does not encode \(format.rawValue)")
  }
}
