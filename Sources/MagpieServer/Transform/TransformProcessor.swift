import Foundation
import Magpie

/// Turns a source image into what one transform URL asks for, in imgproxy's
/// order: resize by ``TransformOptions/resizingType`` (Lanczos-3 in sRGB,
/// as `ImageProcessors.Resizing`), turn by ``TransformOptions/rotation``,
/// crop to the target by ``TransformOptions/gravity``, blur, sharpen,
/// flatten onto ``TransformOptions/background`` and pad. Sizes are
/// ``TransformGeometry``'s. EXIF orientation is not this processor's: the
/// decoders have already applied it.
///
/// Given the encoded bytes (``prefersEncodedData``), it reads the headers
/// first, refuses a result over ``maximumResultPixels`` before decoding,
/// and decodes at the smallest size the decoder can make that still covers
/// the resized image (``decodeTargetSize(for:)``): a 24 MP JPEG served at
/// 300 px is decoded at 1/8 scale, never whole.
///
/// Animations stay animated, every frame transformed alike. Eager frames
/// are replaced one by one, so a source frame is let go as its result is
/// made; on-demand animations get the processor on each frame as it is
/// decoded (`ImageProcessor`'s rule). A smart crop is chosen per frame,
/// as imgproxy runs its pipeline per frame.
public struct TransformProcessor: ImageProcessor {
  /// 50 megapixels: the default of ``maximumResultPixels``.
  public static let defaultMaximumResultPixels = 50_000_000

  /// What the URL asked for.
  public let options: TransformOptions
  /// The most pixels the result (padding included), or the resized image
  /// it is cropped from, may have; more is refused with
  /// `MagpieError.Code.imageTooLarge` before any pixel is allocated.
  public let maximumResultPixels: Int

  /// A processor making what `options` ask for, refusing results over
  /// `maximumResultPixels`.
  public init(options: TransformOptions, maximumResultPixels: Int = TransformProcessor.defaultMaximumResultPixels) {
    self.options = options
    self.maximumResultPixels = maximumResultPixels
  }

  /// `true`: given the bytes, it decodes them at a reduced size.
  public var prefersEncodedData: Bool { true }

  /// The geometry of a source of `sourceSize` (upright pixels), checked
  /// against ``maximumResultPixels``: throws
  /// `MagpieError.Code.invalidArgument` for options out of range and
  /// `MagpieError.Code.imageTooLarge` naming the limit.
  public func geometry(for sourceSize: PixelSize) throws(MagpieError) -> TransformGeometry {
    let geometry = try TransformGeometry(options: options, sourceSize: sourceSize)
    for (what, size) in [("result", geometry.resultSize), ("resized image", geometry.scaledSize)]
    where size.pixelCount > maximumResultPixels {
      throw MagpieError(
        .imageTooLarge,
        "the transform's \(what) would be \(size) (\(size.pixelCount) pixels), over the limit of "
          + "\(maximumResultPixels) pixels (TransformProcessor.maximumResultPixels)",
        processor: identifier)
    }
    return geometry
  }

  /// The size a decoder should decode a source of `sourceSize` (upright)
  /// at, as `DecodeOptions.targetSize` with
  /// `DecodeOptions.ContentMode.aspectFill`: the resized image's size,
  /// or `nil` when the source is not reduced.
  public func decodeTargetSize(for sourceSize: PixelSize) throws(MagpieError) -> PixelSize? {
    let geometry = try geometry(for: sourceSize)
    let scaled = geometry.scaledSize
    return scaled.width < sourceSize.width || scaled.height < sourceSize.height ? scaled : nil
  }

  /// The transformed image.
  public func process(item: ImageProcessItem, options processing: ImageProcessingOptions) throws(MagpieError)
    -> Image
  {
    var image: Image
    let geometry: TransformGeometry
    switch item {
    case .image(let source):
      geometry = try self.geometry(for: source.pixelSize)
      let frames = processing.firstFrameOnly ? 1 : source.frames.count
      try checkFrames(frames, of: geometry, processing: processing)
      image = source
    case .data(let data):
      var decode = processing.decodeOptions
      decode.firstFrameOnly = decode.firstFrameOnly || processing.firstFrameOnly
      let info = try processing.registry.info(of: data)
      // The decoder turns the pixels upright only when asked to.
      let upright = decode.appliesOrientation || !info.orientation.swapsDimensions
      geometry = try self.geometry(for: upright ? info.size : info.size.transposed)
      // Declared frames are checked before anything is decoded.
      try checkFrames(decode.firstFrameOnly ? 1 : info.frameCount, of: geometry, processing: processing)
      if let target = try decodeTargetSize(for: geometry.sourceSize) {
        decode.targetSize = target
        decode.contentMode = .aspectFill
      }
      image = try processing.registry.decode(data, options: decode)
    }
    return transformed(&image, geometry: geometry, firstFrameOnly: processing.firstFrameOnly)
  }

  /// Refuses more frames than the decode limits allow, or result frames
  /// that together would take more than ``DecodeOptions/maxTotalByteCount``.
  private func checkFrames(
    _ count: Int, of geometry: TransformGeometry, processing: ImageProcessingOptions
  ) throws(MagpieError) {
    let limits = processing.decodeOptions
    if count > limits.maxFrameCount {
      throw MagpieError(
        .limitExceeded, "\(count) frames, over the limit of \(limits.maxFrameCount) (DecodeOptions.maxFrameCount)",
        processor: identifier)
    }
    guard count > 1 else { return }
    let (frameBytes, overflow) = geometry.resultSize.pixelCount.multipliedReportingOverflow(by: 4 * count)
    if overflow || frameBytes > limits.maxTotalByteCount {
      throw MagpieError(
        .imageTooLarge,
        "\(count) transformed frames of \(geometry.resultSize) need more than \(limits.maxTotalByteCount) bytes "
          + "(DecodeOptions.maxTotalByteCount)", processor: identifier)
    }
  }

  /// `image` with every frame (or the first) transformed. The frames are
  /// taken out of `image`, so a source frame nobody else holds is freed as
  /// its result replaces it.
  private func transformed(_ image: inout Image, geometry: TransformGeometry, firstFrameOnly: Bool) -> Image {
    var frames = firstFrameOnly ? [image.frames[0]] : image.frames
    image.frames = []
    for index in frames.indices {
      frames[index].pixels = transformed(frames[index].pixels, geometry: geometry)
      if firstFrameOnly { frames[index].duration = .zero }
    }
    let animated = frames.count > 1
    var result = Image(
      frames: frames, loopCount: animated ? image.loopCount : 0, format: image.format, scale: image.scale,
      orientation: image.orientation, isPartial: image.isPartial)
    result.colorProfile = image.colorProfile
    result.metadata = image.metadata
    return result
  }
}
