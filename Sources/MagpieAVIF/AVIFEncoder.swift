import CAVIF
import CAVIFLoader
import Foundation
import Magpie

/// Writes AVIF with libavif's encoder (libaom first, then rav1e or SVT-AV1,
/// whichever libavif has).
enum AVIFEncoder {
  /// The speed libavif's own `avifenc` uses when none is given.
  static let defaultSpeed = 6

  /// libavif 0.11 takes quantizers (0 best, 63 worst), not a quality:
  /// quality 0-100 maps onto them as later libavif versions map their
  /// quality setting, ((100 - quality) * 63 + 50) / 100.
  static func quantizer(quality: Int) -> Int32 {
    let q = min(max(quality, 0), 100)
    return Int32(((100 - q) * 63 + 50) / 100)
  }

  /// Encodes every frame of `image` (the first with `firstFrameOnly`) as
  /// 8-bit 4:2:0 YUV (4:4:4 from quality 90 up), or losslessly as 4:4:4
  /// with the identity matrix and quantizer 0; alpha is kept when any pixel is not opaque. An image
  /// decoded with ``DecodeOptions/decodesFramesOnDemand`` holds its poster
  /// frame only in ``Image/frames`` and encodes that frame. The profile
  /// ``EncodeOptions/colorProfile`` asks for is embedded.
  static func encode(_ image: Image, options: EncodeOptions) throws(MagpieError) -> Data {
    let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
    let straight = frames.map { $0.pixels.straightRGBA() }
    let hasAlpha = zip(frames, straight).contains { frame, bytes in
      !frame.pixels.isOpaque
        && bytes.withUnsafeBufferPointer { b in stride(from: 3, to: b.count, by: 4).contains { b[$0] != 255 } }
    }
    guard mp_avif_library_open() != 0 else {
      let why = lazyLibraryMessage { mp_avif_library_error($0, $1) }
      throw MagpieError(.encodingFailed, "avif: libavif could not be loaded: \(why)")
    }
    guard let encoder = avifEncoderCreate() else { throw MagpieError(.encodingFailed, "libavif made no encoder") }
    defer { avifEncoderDestroy(encoder) }
    encoder.pointee.maxThreads = Int32(min(ProcessInfo.processInfo.activeProcessorCount, 8))
    encoder.pointee.speed = Int32(min(max(options.speed ?? defaultSpeed, 0), 10))
    let q = options.lossless ? 0 : quantizer(quality: options.quality)
    encoder.pointee.minQuantizer = q
    encoder.pointee.maxQuantizer = q
    encoder.pointee.minQuantizerAlpha = options.lossless ? 0 : max(0, q - 10)
    encoder.pointee.maxQuantizerAlpha = options.lossless ? 0 : max(0, q - 10)
    encoder.pointee.timescale = 1000
    let flags = frames.count == 1 ? AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue : AVIF_ADD_IMAGE_FLAG_NONE.rawValue
    for (frame, bytes) in zip(frames, straight) {
      try add(frame, bytes: bytes, to: encoder, hasAlpha: hasAlpha, flags: flags, image: image, options: options)
    }
    var output = avifRWData()
    defer { avifRWDataFree(&output) }
    try check(avifEncoderFinish(encoder, &output), "finishing the avif", encoder)
    guard let data = output.data else { throw MagpieError(.encodingFailed, "libavif wrote no bytes") }
    return Data(bytes: data, count: output.size)
  }

  private static func add(
    _ frame: ImageFrame, bytes: [UInt8], to encoder: UnsafeMutablePointer<avifEncoder>, hasAlpha: Bool,
    flags: UInt32, image: Image, options: EncodeOptions
  ) throws(MagpieError) {
    let pixels = frame.pixels
    // Full-resolution chroma where fidelity is asked for (as avifenc does
    // for PNG input); half-resolution chroma, the photo norm, below.
    let format = options.lossless || options.quality >= 90 ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
    guard let yuv = avifImageCreate(UInt32(pixels.width), UInt32(pixels.height), 8, format) else {
      throw MagpieError(.encodingFailed, "libavif made no image of \(pixels.size)")
    }
    defer { avifImageDestroy(yuv) }
    yuv.pointee.yuvRange = AVIF_RANGE_FULL
    if options.lossless { yuv.pointee.matrixCoefficients = UInt16(AVIF_MATRIX_COEFFICIENTS_IDENTITY) }
    if let icc = try MetadataEmbedder.profile(for: image, options: options) {
      icc.withUnsafeBytes { raw in
        avifImageSetProfileICC(yuv, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
      }
    }
    var rgb = avifRGBImage()
    avifRGBImageSetDefaults(&rgb, yuv)
    rgb.format = AVIF_RGB_FORMAT_RGBA
    rgb.depth = 8
    rgb.ignoreAlpha = hasAlpha ? 0 : 1
    var source = bytes
    let converted = source.withUnsafeMutableBytes { raw in
      rgb.pixels = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      rgb.rowBytes = UInt32(pixels.width * PixelBuffer.bytesPerPixel)
      return avifImageRGBToYUV(yuv, &rgb)
    }
    try check(converted, "converting RGB to YUV", encoder)
    let duration = UInt64(max(1, frame.durationMilliseconds))
    try check(avifEncoderAddImage(encoder, yuv, duration, flags), "encoding a frame", encoder)
  }

  private static func check(
    _ result: avifResult, _ what: String, _ encoder: UnsafeMutablePointer<avifEncoder>
  ) throws(MagpieError) {
    guard result != AVIF_RESULT_OK else { return }
    let name = String(cString: avifResultToString(result))
    let diag = AVIFStatus.text(&encoder.pointee.diag)
    throw MagpieError(.encodingFailed, "libavif failed \(what): \(name)\(diag.isEmpty ? "" : " (\(diag))")")
  }
}
