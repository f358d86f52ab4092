import Foundation
import Magpie

/// Decodes HEIC/HEIF still images with libheif (HEVC through libde265):
/// the primary image, its alpha, 8-bit or deeper (10/12-bit samples
/// rounded to 8), upright.
///
/// Orientation is HEIF's own: libheif applies the primary item's `irot`,
/// `imir` and `clap` when decoding, and an EXIF orientation tag is ignored,
/// as HEIF readers and browsers do (iPhones write both, with the same
/// meaning, so applying the EXIF one as well would turn the image twice).
/// `Image.orientation` is therefore `.up`, and
/// `DecodeOptions.appliesOrientation` does not apply: irot/imir are part
/// of the image's geometry.
///
/// With `DecodeOptions.targetSize` set, the smallest embedded thumbnail
/// that still covers `DecodeOptions.requiredStoredSize(for:orientation:)`
/// is decoded instead of the primary image (the fastest thumbnail there
/// is); otherwise, since libheif cannot decode at a smaller size, the
/// decoded image is box-reduced by the largest integer factor that still
/// covers the target (premultiplied then, as resampled pixels are). The
/// result is never smaller than the target needs.
///
/// `DecodeOptions.maxPixelCount` is checked against the size the chosen
/// image declares before any pixel is decoded; libheif refuses a side over
/// 32768 pixels itself. The `colr` ICC profile (`prof`/`rICC`) is attached
/// as `Image.colorProfile`, unconverted: the registry converts centrally.
/// A file whose item references form a cycle or nest too deep
/// (`HEIFItemReferences`), or whose grid or overlay declares a canvas over
/// `DecodeOptions.maxPixelCount` (`HEIFDerivedImageSizes`), or whose
/// `iloc` declares item data past the end of the file
/// (`HEIFItemLocations`), is refused before libheif sees it.
///
/// HEVC pictures decode through ``hevcDecoder`` (FFmpeg's libavcodec where
/// it is installed, else libde265), a photo-sized one on the caller's core
/// and each idle one (a grid's tiles on libheif's threads), to the same
/// pixels as libheif's own plugin gives on one.
///
/// Encoding writes the first frame as HEIC through libheif's x265 plugin;
/// see `HEIFEncoder`.
public struct HEIFCoder: ImageCoder {
  /// The HEVC decoder for the pictures (the fastest one here unless set).
  public var hevcDecoder: HEVCDecoder

  /// Creates the coder, decoding HEVC with `hevcDecoder`.
  public init(hevcDecoder: HEVCDecoder = .fastest) { self.hevcDecoder = hevcDecoder }

  /// True for HEIC/HEIF data.
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .heic }

  /// Decodes the primary image (or a thumbnail covering the target size).
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    // libheif 1.15 would follow a reference cycle forever, and allocate
    // any canvas a derived image declares: both refused first.
    try HEIFItemReferences(data).check()
    let derived = HEIFDerivedImageSizes(data)
    try derived.check(maxPixelCount: options.maxPixelCount)
    // libheif sizes an item's buffer from the extents iloc declares.
    try HEIFItemLocations(data).check()
    let (pixels, profile) = try HEIFFile.with(data) { file throws(MagpieError) -> (PixelBuffer, ColorProfile?) in
      let declared = file.primary.size
      let source = Self.source(for: file.primary, options: options)
      try options.checkPixelLimit(decoded: source.size, declared: declared)
      // libheif decodes the image in one call: the limit is checked before it.
      try options.startDeadline().check("the heic image")
      // Idle cores split a grid's tiles (libheif) or else one picture's
      // rows (libde265); a thumbnail-sized picture is not worth threads.
      let threads = source.size.pixelCount >= 256 * 256 ? CodecLoad.shared.threads(limit: 4) : 1
      let tiled = derived.mostGridTiles > 1
      file.setTileThreads(tiled && threads > 1 ? threads : 0)
      var pixels = try source.decodeRGBA8(pictureThreads: tiled ? 1 : threads, decoder: hevcDecoder)
      let factor = options.shrinkDenominator(for: pixels.size, orientation: .up, choices: Array(2...64))
      if factor > 1 { pixels = Resampler.boxReduce(pixels, factorX: factor, factorY: factor) }
      return (pixels, file.primary.iccProfile())
    }
    var image = Image(frames: [ImageFrame(pixels: pixels)], format: .heic, scale: options.scale)
    image.colorProfile = profile
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// Reads the primary image's size (after irot/imir/clap) from the boxes,
  /// without decoding pixels.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    let size = try HEIFFile.with(data) { file throws(MagpieError) -> PixelSize in file.primary.size }
    guard size.width > 0, size.height > 0 else {
      throw MagpieError(.corruptData, "heic: image declares an empty size \(size)")
    }
    return ImageInfo(format: .heic, size: size, byteCount: data.count)
  }

  /// True for `ImageFormat.heic`.
  public func canEncode(to format: ImageFormat) -> Bool { format == .heic }

  /// Encodes the first frame as HEIC (HEVC through libheif's x265 plugin)
  /// at `options.quality`, or losslessly (4:4:4, identity matrix) with
  /// `options.lossless`; alpha is kept when any pixel is not opaque; the
  /// profile `EncodeOptions.colorProfile` asks for is embedded, and the
  /// EXIF with `EncodeOptions.keepsMetadata`. See `HEIFEncoder`.
  public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data {
    guard format == .heic else { throw MagpieError(.encodingFailed, "HEIFCoder does not encode \(format.rawValue)") }
    return try HEIFEncoder.encode(image, options: options)
  }

  /// The image to decode: the smallest thumbnail that covers what the
  /// target size needs, else the primary image.
  static func source(for primary: HEIFHandle, options: DecodeOptions) -> HEIFHandle {
    guard let needed = options.requiredStoredSize(for: primary.size, orientation: .up) else { return primary }
    // A thumbnail stored without the primary's alpha (heif-enc
    // --no-thumb-alpha) would show transparent pixels opaque: not taken.
    let alpha = primary.hasAlpha
    let covering = primary.thumbnails().filter {
      $0.size.width >= needed.width && $0.size.height >= needed.height && (!alpha || $0.hasAlpha)
    }
    return covering.min { $0.size.pixelCount < $1.size.pixelCount } ?? primary
  }
}
