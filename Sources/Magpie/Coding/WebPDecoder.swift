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
  /// Pixels come out premultiplied (`MODE_rgbA`) from libwebp itself, which
  /// premultiplies rows while they are in cache; its arithmetic truncates
  /// (`c * a * 32897 >> 23`), so values can be 1 below exact rounding. An
  /// extra rounding pass in Swift cost 12% of the decode.
  static func decodeStill(
    _ bytes: UnsafeRawBufferPointer, orientation: ImageOrientation, options: DecodeOptions
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
    // libwebp filters and converts lossy rows on a second thread: worth it
    // for images big enough to amortise starting it.
    config.options.use_threads = stored.pixelCount >= 256 * 256 ? 1 : 0
    config.output.colorspace = MODE_rgbA
    config.output.is_external_memory = 1
    return try PixelBuffer(uninitializedWidth: output.width, height: output.height) {
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

  /// Decodes every frame (or the first) of an animation, composited by
  /// libwebp's WebPAnimDecoder onto a canvas that starts transparent (the
  /// background colour is ignored, as browsers do). It blends in
  /// premultiplied space (`src + dst * (256 - src_alpha) / 256`), which is
  /// Porter-Duff "over", within one level of exact arithmetic.
  static func decodeAnimation(
    _ bytes: UnsafeRawBufferPointer, container: WebPContainer, options: DecodeOptions
  ) throws(MagpieError) -> [ImageFrame] {
    let canvas = PixelSize(width: container.width, height: container.height)
    try options.checkPixelLimit(decoded: canvas, declared: canvas)
    let frameCount = options.firstFrameOnly ? 1 : container.frameCount
    try options.checkAnimationByteLimit(format: "webp", frameCount: frameCount, canvas: canvas)
    var decoderOptions = WebPAnimDecoderOptions()
    guard WebPAnimDecoderOptionsInit(&decoderOptions) != 0 else {
      throw MagpieError(.corruptData, "libwebp refused its animation options (version mismatch)")
    }
    decoderOptions.color_mode = MODE_rgbA
    decoderOptions.use_threads = 0
    var data = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
    guard let decoder = WebPAnimDecoderNew(&data, &decoderOptions) else {
      throw MagpieError(.corruptData, "libwebp could not set up the animation decoder")
    }
    defer { WebPAnimDecoderDelete(decoder) }
    var frames: [ImageFrame] = []
    var previousTimestamp: Int32 = 0
    while frames.count < frameCount && WebPAnimDecoderHasMoreFrames(decoder) != 0 {
      var buffer: UnsafeMutablePointer<UInt8>?
      var timestamp: Int32 = 0
      guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
        throw MagpieError(.corruptData, "webp animation frame \(frames.count + 1) could not be decoded")
      }
      let pixels = CanvasSnapshot.pixels(copying: buffer, width: canvas.width, height: canvas.height)
      // Timestamps are when each frame ends.
      let duration = Int(timestamp) - Int(previousTimestamp)
      previousTimestamp = timestamp
      frames.append(ImageFrame(pixels: pixels, duration: ImageFrame.browserDuration(milliseconds: duration)))
    }
    return frames
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
