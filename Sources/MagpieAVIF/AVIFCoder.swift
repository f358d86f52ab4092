import Foundation
import Magpie

/// Decodes and encodes AVIF (still images and `avis` image sequences) with
/// libavif, whose AV1 decoder is dav1d (or libgav1, or libaom) and encoder
/// libaom (or rav1e, or SVT-AV1), whichever libavif was built with.
///
/// Decoding gives straight RGBA8: 8-bit files exactly as `avifdec -d 8`
/// writes them, 10- and 12-bit files converted at 16 bits and rounded to 8
/// (see `AVIFPixels`), premultiplied-alpha files divided back to straight
/// alpha, every chroma subsampling (4:4:4, 4:2:2, 4:2:0, 4:0:0) upsampled
/// as libavif does by default. The clean aperture (clap) crops the stored
/// pixels, then irot and imir turn them upright (in that order, as MIAF
/// says) when `options.appliesOrientation`; `Image.orientation` carries
/// the EXIF orientation they amount to. An embedded ICC profile is carried
/// as `Image.colorProfile` for the core to convert; a file signalling its
/// colour by CICP (nclx) alone gets `nil` (taken as sRGB).
///
/// Limits: libavif's own size limit is set to `options.maxPixelCount` (at
/// most libavif's ceiling of 16384 x 16384 pixels, which it cannot raise), and
/// the size the container declares is checked against it before any AV1
/// data is decoded; a sequence's frame count times its canvas is checked
/// against `options.maxTotalByteCount` and its frame count against
/// `options.maxFrameCount` before the first frame, and the time limit
/// between frames. A container declaring a larger size than its AV1
/// sequence header codes is corrupt (libavif would upscale the frame to
/// it: a kilobyte file becoming hundreds of megabytes). libavif has
/// no decode-time downscaling, so `options.targetSize` is not used: images
/// decode at full size and the caller's processors resample them. libavif
/// 0.11 reads no repetition count, so sequences loop forever (0).
public struct AVIFCoder: ImageCoder {
  /// Creates the coder.
  public init() {}

  /// True for AVIF data (ftyp brands `avif` and `avis`).
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .avif }

  /// Decodes the image, or every frame of a sequence (the first only with
  /// `options.firstFrameOnly`); a sequence damaged after its first frame
  /// keeps the frames before the damage and is flagged `Image.isPartial`
  /// when `options.allowsPartialImage`.
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    let decoding = try AVIFDecoding(data: data, maxPixelCount: options.maxPixelCount)
    let count = options.firstFrameOnly ? 1 : decoding.frameCount
    try options.checkFrameCount(count, format: "avif sequence")
    try options.checkAnimationByteLimit(format: "avif sequence", frameCount: count, canvas: decoding.croppedSize)
    let turn = options.appliesOrientation ? decoding.header.orientation : .up
    var frames: [ImageFrame] = []
    frames.reserveCapacity(count)
    var isPartial = false
    // libavif decodes a frame in one call: the deadline holds between them.
    let deadline = options.startDeadline()
    for index in 0..<count {
      try deadline.check("avif frame \(index + 1)")
      do throws(MagpieError) {
        let pixels = try decoding.frame(at: index).applying(turn)
        let duration = count > 1 ? ImageFrame.browserDuration(milliseconds: decoding.header.durations[index]) : .zero
        frames.append(ImageFrame(pixels: pixels, duration: duration))
      } catch {
        guard index > 0, options.allowsPartialImage else { throw error }
        isPartial = true
        break
      }
    }
    var image = Image(
      frames: frames, loopCount: 0, format: .avif, scale: options.scale, orientation: decoding.header.orientation,
      isPartial: isPartial, originalData: options.keepsOriginalData ? data : nil)
    image.colorProfile = decoding.header.colorProfile
    return image
  }

  /// Reads size (after the clean aperture and orientation), frame count,
  /// durations and orientation from the container without decoding AV1,
  /// so without the pixel limit a decode would apply.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    // No pixel limit of ours: nothing is decoded (libavif's own limits,
    // 16384 x 16384 pixels and 32768 a side, still refuse more).
    let decoding = try AVIFDecoding(data: data, maxPixelCount: Int.max, checksCodedSize: false)
    let header = decoding.header
    let size = header.orientation.displayedSize(of: decoding.croppedSize)
    guard decoding.frameCount > 1 else {
      return ImageInfo(format: .avif, size: size, orientation: header.orientation, byteCount: data.count)
    }
    return ImageInfo(
      format: .avif, size: size, frameCount: decoding.frameCount, loopCount: 0,
      frameDurations: header.durations.map { ImageFrame.browserDuration(milliseconds: $0) },
      orientation: header.orientation, byteCount: data.count)
  }

  /// A frame source for an image sequence of more than one frame, `nil`
  /// for a still; see ``AVIFFrameSource``. Parses the container and checks
  /// the pixel limit; decodes nothing.
  public func frameSource(for data: Data, options: DecodeOptions) throws(MagpieError) -> (any ImageFrameSource)? {
    let decoding = try AVIFDecoding(data: data, maxPixelCount: options.maxPixelCount)
    guard decoding.frameCount > 1 else { return nil }
    try options.checkFrameCount(decoding.frameCount, format: "avif sequence")
    return AVIFFrameSource(decoding: decoding, options: options)
  }

  /// True for `ImageFormat.avif`.
  public func canEncode(to format: ImageFormat) -> Bool { format == .avif }

  /// Encodes `image` as AVIF at `options.quality` and `options.speed`
  /// (losslessly with `options.lossless`), with alpha when any frame has
  /// it; an animation becomes an image sequence unless
  /// `options.firstFrameOnly`. See `AVIFEncoder`.
  public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data {
    guard format == .avif else { throw MagpieError(.encodingFailed, "AVIFCoder does not encode \(format.rawValue)") }
    return try AVIFEncoder.encode(image, options: options)
  }
}
