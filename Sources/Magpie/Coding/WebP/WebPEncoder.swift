import CWebP
import Foundation

/// Encodes WebP with libwebp: stills through `WebPEncode` into a
/// `WebPMemoryWriter`, animations through `WebPAnimEncoder`.
///
/// Opaque pixels are imported as RGBX from the buffer as it is (either
/// alpha representation is the same bytes at alpha 255), which is faster and
/// lets the encoder drop alpha; straight ones as RGBA as they are;
/// premultiplied ones are un-premultiplied first. Lossless output uses
/// `quality` as libwebp's effort setting, as Pillow does, and keeps the
/// colour of fully transparent pixels too (libwebp's `exact`), so a lossless
/// round trip returns every stored value.
enum WebPEncoder {
  /// Largest width or height WebP stores.
  static let maxDimension = 16383

  /// Encodes `frames` (one: a still; more: an animation playing its loop
  /// count, 0 = forever), reading them in order.
  static func encode(frames: inout EncodingFrames, options: EncodeOptions) throws(MagpieError) -> Data {
    let size = frames.size
    guard size.width > 0, size.height > 0, size.width <= maxDimension, size.height <= maxDimension else {
      throw MagpieError(.invalidArgument, "webp cannot store a \(size) image (1 to \(maxDimension) pixels a side)")
    }
    var config = try makeConfig(options)
    if frames.count == 1, let still = try frames.next() { return try encodeStill(still.pixels, config: &config) }
    return try encodeAnimation(&frames, config: &config)
  }

  private static func makeConfig(_ options: EncodeOptions) throws(MagpieError) -> WebPConfig {
    var config = WebPConfig()
    let quality = Float(min(100, max(0, options.quality)))
    guard WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, quality, WEBP_ENCODER_ABI_VERSION) != 0 else {
      throw MagpieError(.encodingFailed, "libwebp refused its encoder configuration (version mismatch)")
    }
    if options.lossless {
      config.lossless = 1
      config.exact = 1
    }
    // Analysis and alpha on a helper thread, while a core would idle.
    config.thread_level = CodecLoad.shared.hasIdleCore ? 1 : 0
    guard WebPValidateConfig(&config) != 0 else {
      throw MagpieError(.encodingFailed, "libwebp rejected the encoder settings (quality \(options.quality))")
    }
    return config
  }

  /// Fills `picture` (already initialised) with `pixels`; free it with
  /// `WebPPictureFree`.
  private static func importPixels(
    _ pixels: PixelBuffer, into picture: inout WebPPicture, lossless: Bool
  ) throws(MagpieError) {
    picture.width = Int32(pixels.width)
    picture.height = Int32(pixels.height)
    // Lossless works on ARGB; lossy converts to YUV while importing.
    picture.use_argb = lossless ? 1 : 0
    let opaque = pixels.isOpaque || allOpaque(pixels)
    let imported: Int32
    if opaque {
      imported = pixels.withUnsafeBytes { raw in
        WebPPictureImportRGBX(&picture, raw.bindMemory(to: UInt8.self).baseAddress, Int32(pixels.bytesPerRow))
      }
    } else if pixels.alphaRepresentation == .straight {
      imported = pixels.withUnsafeBytes { raw in
        WebPPictureImportRGBA(&picture, raw.bindMemory(to: UInt8.self).baseAddress, Int32(pixels.bytesPerRow))
      }
    } else {
      let straight = pixels.straightRGBA()
      imported = WebPPictureImportRGBA(&picture, straight, Int32(pixels.width * PixelBuffer.bytesPerPixel))
    }
    guard imported != 0 else { throw MagpieError(.encodingFailed, "libwebp could not take the pixels (out of memory)") }
  }

  private static func allOpaque(_ pixels: PixelBuffer) -> Bool {
    pixels.withUnsafeBytes { raw in
      let rowBytes = pixels.width * PixelBuffer.bytesPerPixel
      for y in 0..<pixels.height {
        var i = y * pixels.bytesPerRow + 3
        let end = y * pixels.bytesPerRow + rowBytes
        while i < end {
          if raw[i] != 255 { return false }
          i += 4
        }
      }
      return true
    }
  }

  private static func encodeStill(_ pixels: PixelBuffer, config: inout WebPConfig) throws(MagpieError) -> Data {
    var picture = WebPPicture()
    guard WebPPictureInit(&picture) != 0 else {
      throw MagpieError(.encodingFailed, "libwebp refused its picture setup (version mismatch)")
    }
    defer { WebPPictureFree(&picture) }
    try importPixels(pixels, into: &picture, lossless: config.lossless != 0)
    // The writer must stay at one address while WebPEncode calls back into it.
    let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
    WebPMemoryWriterInit(writer)
    defer {
      WebPMemoryWriterClear(writer)
      writer.deallocate()
    }
    picture.writer = WebPMemoryWrite
    picture.custom_ptr = UnsafeMutableRawPointer(writer)
    guard WebPEncode(&config, &picture) != 0 else {
      throw MagpieError(.encodingFailed, "libwebp could not encode the image (error \(picture.error_code.rawValue))")
    }
    return Data(bytes: writer.pointee.mem, count: writer.pointee.size)
  }

  private static func encodeAnimation(
    _ frames: inout EncodingFrames, config: inout WebPConfig
  ) throws(MagpieError) -> Data {
    var animationOptions = WebPAnimEncoderOptions()
    guard WebPAnimEncoderOptionsInit(&animationOptions) != 0 else {
      throw MagpieError(.encodingFailed, "libwebp refused its animation options (version mismatch)")
    }
    animationOptions.anim_params.loop_count = Int32(min(65535, max(0, frames.loopCount)))
    let size = frames.size
    guard let encoder = WebPAnimEncoderNew(Int32(size.width), Int32(size.height), &animationOptions) else {
      throw MagpieError(.encodingFailed, "libwebp could not start an animation (out of memory)")
    }
    defer { WebPAnimEncoderDelete(encoder) }
    func failure(_ what: String) -> MagpieError {
      let reason = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
      return MagpieError(.encodingFailed, "libwebp failed \(what): \(reason)")
    }
    var timestamp = 0
    for i in 0..<frames.count {
      guard let frame = try frames.next(), frame.pixels.size == size else {
        throw MagpieError(.invalidArgument, "webp frame \(i + 1) of \(frames.count) is missing or not \(size)")
      }
      var picture = WebPPicture()
      guard WebPPictureInit(&picture) != 0 else {
        throw MagpieError(.encodingFailed, "libwebp refused its picture setup (version mismatch)")
      }
      defer { WebPPictureFree(&picture) }
      try importPixels(frame.pixels, into: &picture, lossless: config.lossless != 0)
      guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
        throw failure("adding frame \(i + 1)")
      }
      // Timestamps must grow: a zero duration is stored as 1 ms (shown as
      // 100 ms by browsers either way).
      timestamp += max(1, frame.durationMilliseconds)
    }
    guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0 else { throw failure("ending the animation") }
    var output = WebPData()
    guard WebPAnimEncoderAssemble(encoder, &output) != 0 else { throw failure("assembling the animation") }
    defer { WebPDataClear(&output) }
    return Data(bytes: output.bytes, count: output.size)
  }
}
