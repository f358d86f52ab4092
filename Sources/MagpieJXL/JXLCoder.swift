import CJXL
import Foundation
import Magpie

/// Decodes JPEG XL with libjxl 0.7: stills and animations (coalesced full
/// canvases, durations from the tick rate, the loop count), alpha
/// (straight; premultiplied files unpremultiplied by libjxl), any bit
/// depth or float samples delivered as 8-bit (`JXL_TYPE_UINT8`, rounded by
/// libjxl), oriented by libjxl unless
/// `DecodeOptions.appliesOrientation` is false.
///
/// `DecodeOptions.maxPixelCount` is checked against the basic info, and
/// `DecodeOptions.maxTotalByteCount` against the frames the headers list,
/// before any pixel buffer exists. A file that ends early gives, with
/// `DecodeOptions.allowsPartialImage`, what libjxl can render of the
/// frame it was in (`JxlDecoderFlushImage`: a progressive file's passes so
/// far), flagged `Image.isPartial`; the profile the pixels are in
/// (`JXL_COLOR_PROFILE_TARGET_DATA`) is attached as `Image.colorProfile`
/// unless libjxl describes it as sRGB. Decoding runs on the calling thread.
///
/// Encoding writes stills and animations with libjxl's encoder; see
/// `JXLEncoder`.
public struct JXLCoder: ImageCoder {
  /// Creates the coder.
  public init() {}

  /// True for JPEG XL data (codestream or container).
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .jxl }

  /// Decodes the image, or every frame of an animation (the first only
  /// when `options.firstFrameOnly`).
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    let keeps = !options.appliesOrientation
    let header = try JXLHeader.read(data, framesToo: !options.firstFrameOnly, limits: options)
    if header.endsEarly && !options.allowsPartialImage {
      throw MagpieError(.truncatedData, "jxl: the file ends before its last frame")
    }
    let canvas = header.canvas(keepsOrientation: keeps)
    try options.checkPixelLimit(decoded: canvas, declared: canvas)
    let frameCount = options.firstFrameOnly ? 1 : header.durations.count
    try options.checkAnimationByteLimit(format: "jxl", frameCount: frameCount, canvas: canvas)
    let session = try JXLSession(data, events: [JXL_DEC_FRAME, JXL_DEC_FULL_IMAGE], keepsOrientation: keeps)
    let reader = JXLFrameReader(canvas: canvas, allowsPartial: options.allowsPartialImage)
    var frames: [ImageFrame] = []
    var isPartial = false
    // libjxl decodes a frame per call: the deadline holds between them.
    let deadline = options.startDeadline()
    while frames.count < frameCount {
      try deadline.check("jxl frame \(frames.count + 1)")
      let next: (pixels: PixelBuffer, isPartial: Bool)?
      do { next = try reader.next(from: session) } catch {
        // Damage after the first frame ends an animation there, as in GIF.
        guard options.allowsPartialImage, !frames.isEmpty else { throw error }
        isPartial = true
        break
      }
      guard let next else { break }
      let duration = frameCount > 1 ? header.durations[frames.count] : .zero
      frames.append(ImageFrame(pixels: next.pixels, duration: duration))
      if next.isPartial {
        isPartial = true
        break
      }
    }
    guard !frames.isEmpty else { throw MagpieError(.corruptData, "jxl: the file has no frame") }
    var image = Image(
      frames: frames, loopCount: frames.count > 1 ? header.loopCount : 0, format: .jxl, scale: options.scale,
      orientation: header.orientation, isPartial: isPartial || header.endsEarly)
    image.colorProfile = header.colorProfile
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// Reads size, orientation, frame count, durations and loop count from
  /// the headers and frame headers, without decoding pixels.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    let header = try JXLHeader.read(data)
    let size = header.canvas(keepsOrientation: false)
    guard size.width > 0, size.height > 0 else {
      throw MagpieError(.corruptData, "jxl: image declares an empty size \(size)")
    }
    let animated = header.durations.count > 1
    return ImageInfo(
      format: .jxl, size: size, frameCount: header.durations.count, loopCount: animated ? header.loopCount : 0,
      frameDurations: animated ? header.durations : [.zero], orientation: header.orientation,
      byteCount: data.count)
  }

  /// A frame source for an animation of more than one frame, `nil` for a
  /// still; see `JXLFrameSource`.
  public func frameSource(for data: Data, options: DecodeOptions) throws(MagpieError) -> (any ImageFrameSource)? {
    try JXLFrameSource.make(data: data, options: options)
  }

  /// True for `ImageFormat.jxl`.
  public func canEncode(to format: ImageFormat) -> Bool { format == .jxl }

  /// Encodes `image` as JPEG XL: lossy at the distance `options.quality`
  /// maps to (cjxl's mapping), or losslessly with `options.lossless`, at the
  /// effort `options.speed` gives (7 by default); every frame of an
  /// animation with its duration and the loop count unless
  /// `options.firstFrameOnly`. See `JXLEncoder`.
  public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data {
    guard format == .jxl else { throw MagpieError(.encodingFailed, "JXLCoder does not encode \(format.rawValue)") }
    return try JXLEncoder.encode(image, options: options)
  }
}
