import CWebP

/// Decodes WebP pixels with libwebp straight into the final buffers.
enum WebPDecoder {
  /// Decodes a still image (lossy, lossless, with or without alpha),
  /// shrinking inside libwebp when `options.targetSize` allows.
  ///
  /// libwebp's rescaler takes any output size and averages areas, so the
  /// image is decoded at exactly the smallest size that covers the target
  /// (``DecodeOptions/requiredStoredSize(for:orientation:)``) instead of at
  /// an integer fraction: the least memory, and nothing left for a resampler
  /// to do except for `aspectFill` crops.
  ///
  /// Pixels come out with straight alpha (`MODE_RGBA`), exactly what
  /// libwebp's own `dwebp` writes, scaled or not: when scaling, libwebp
  /// averages premultiplied colour and divides it back, so a shrunk image
  /// shows no dark fringes and is already at its final size.
  ///
  /// `threads` lets libwebp reconstruct and filter big lossy images on a
  /// second thread while a core is idle (``CodecLoad``); animation frames,
  /// decoded one after another, do without.
  static func decodeStill(
    _ bytes: UnsafeRawBufferPointer, orientation: ImageOrientation, options: DecodeOptions, threads: Bool = true
  ) throws(MagpieError) -> PixelBuffer {
    let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var config = WebPDecoderConfig()
    guard WebPInitDecoderConfig(&config) != 0 else {
      throw MagpieError(.corruptData, "libwebp refused its decoder configuration (version mismatch)")
    }
    try check(WebPGetFeatures(base, bytes.count, &config.input), "reading the webp header")
    let stored = PixelSize(width: Int(config.input.width), height: Int(config.input.height))
    var output = stored
    if let needed = options.requiredStoredSize(for: stored, orientation: orientation),
      needed.width < stored.width || needed.height < stored.height
    {
      output = PixelSize(
        width: max(1, min(needed.width, stored.width)), height: max(1, min(needed.height, stored.height)))
      config.options.use_scaling = 1
      config.options.scaled_width = Int32(output.width)
      config.options.scaled_height = Int32(output.height)
    }
    try options.checkPixelLimit(decoded: output, declared: stored)
    let hasAlpha = config.input.has_alpha != 0
    // libwebp reconstructs and converts lossy rows on a second thread:
    // worth it for images big enough to amortise starting it, on a core
    // that would otherwise idle.
    let helper = threads && stored.pixelCount >= 256 * 256 && CodecLoad.shared.hasIdleCore
    config.options.use_threads = helper ? 1 : 0
    config.output.colorspace = MODE_RGBA
    config.output.is_external_memory = 1
    return try PixelBuffer(uninitializedWidth: output.width, height: output.height, alpha: .straight) {
      (raw: UnsafeMutableRawBufferPointer) throws(MagpieError) -> Bool in
      config.output.u.RGBA.rgba = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      config.output.u.RGBA.stride = Int32(output.width * PixelBuffer.bytesPerPixel)
      config.output.u.RGBA.size = raw.count
      let status = WebPDecode(base, bytes.count, &config)
      WebPFreeDecBuffer(&config.output)
      try check(status, "decoding the webp image")
      return !hasAlpha
    }
  }

  /// Decodes every frame (or the first) of an animation, composited with
  /// straight alpha by ``WebPAnimationDecoder``, after checking the limits
  /// against what the container declares.
  static func decodeAnimation(container: WebPContainer, options: DecodeOptions) throws(MagpieError) -> [ImageFrame] {
    let canvas = PixelSize(width: container.width, height: container.height)
    try options.checkPixelLimit(decoded: canvas, declared: canvas)
    let frameCount = options.firstFrameOnly ? 1 : container.frameCount
    try options.checkFrameCount(frameCount, format: "webp")
    try options.checkAnimationByteLimit(format: "webp", frameCount: frameCount, canvas: canvas)
    return try WebPAnimationDecoder.frames(in: container, frameCount: frameCount, options: options)
  }

  private static func check(_ status: VP8StatusCode, _ what: String) throws(MagpieError) {
    switch status {
    case VP8_STATUS_OK: return
    case VP8_STATUS_NOT_ENOUGH_DATA, VP8_STATUS_SUSPENDED:
      throw MagpieError(.truncatedData, "webp data ends early while \(what)")
    case VP8_STATUS_UNSUPPORTED_FEATURE:
      throw MagpieError(.unsupportedFormat, "webp uses a feature libwebp does not support (\(what))")
    case VP8_STATUS_OUT_OF_MEMORY:
      throw MagpieError(.imageTooLarge, "libwebp ran out of memory while \(what)")
    default:
      throw MagpieError(.corruptData, "webp bitstream is damaged (\(what), libwebp status \(status.rawValue))")
    }
  }
}
