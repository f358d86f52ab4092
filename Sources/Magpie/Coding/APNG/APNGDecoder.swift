/// Decodes an APNG's frames and plays them onto the canvas.
///
/// Debian's libpng knows nothing of APNG, so each frame is rebuilt as a
/// standalone PNG stream (see ``APNGFrame/standaloneStream(in:header:sharedChunks:)``)
/// and decoded through the same libpng shim as a still image.
enum APNGDecoder {
  /// The composited frames of `animation`, read from `bytes`. `reader` has
  /// read the file's header (`header`, already size-checked) and decodes the
  /// default image when it is the first frame; the other frames' readers
  /// take the fast path when `usesFastPath` allows.
  static func frames(
    of animation: APNGAnimation, in bytes: UnsafeRawBufferPointer, reader: PNGReader, header: PNGHeader,
    options: DecodeOptions, usesFastPath: Bool = true
  ) throws(MagpieError) -> [ImageFrame] {
    let frameCount = options.firstFrameOnly ? 1 : animation.frames.count
    // The frames the file holds (each an fcTL chunk), before any is decoded.
    try options.checkFrameCount(frameCount, format: "apng")
    let deadline = options.startDeadline()
    // Every frame is a full canvas: check the total before making any.
    try options.checkAnimationByteLimit(format: "apng", frameCount: frameCount, canvas: header.size)
    var compositor = APNGCompositor(size: header.size)
    var frames: [ImageFrame] = []
    frames.reserveCapacity(frameCount)
    for (index, frame) in animation.frames.prefix(frameCount).enumerated() {
      try deadline.check("APNG frame \(index)")
      let pixels = try pixels(
        of: frame, index: index, animation: animation, in: bytes, header: header, usesFastPath: usesFastPath
      ) { () throws(MagpieError) -> PixelBuffer in try reader.readPixels() }
      frames.append(
        ImageFrame(pixels: compositor.render(pixels, control: frame.control), duration: frame.control.duration))
    }
    return frames
  }

  /// The pixels of `frame`, frame `index` of `animation` in `bytes`, the
  /// size of its fcTL rectangle: `defaultImage` decodes the default image
  /// when the frame is it, else the frame's own stream is decoded (through
  /// the fast path when `usesFastPath` allows). Errors name the frame.
  static func pixels(
    of frame: APNGFrame, index: Int, animation: APNGAnimation, in bytes: UnsafeRawBufferPointer, header: PNGHeader,
    usesFastPath: Bool, defaultImage: () throws(MagpieError) -> PixelBuffer
  ) throws(MagpieError) -> PixelBuffer {
    let pixels: PixelBuffer
    do throws(MagpieError) {
      pixels =
        frame.isDefaultImage
        ? try defaultImage()
        : try decode(
          frame, in: bytes, header: header, sharedChunks: animation.sharedChunks, usesFastPath: usesFastPath)
    } catch {
      throw MagpieError(error.code, "APNG frame \(index): \(error.reason)")
    }
    // The default image is the canvas size and the rebuilt IHDR carries
    // the fcTL size, so this holds unless something upstream is broken.
    guard pixels.width == frame.control.width, pixels.height == frame.control.height else {
      throw MagpieError(.corruptData, "APNG frame \(index) decoded to \(pixels.size), not its fcTL size")
    }
    return pixels
  }

  private static func decode(
    _ frame: APNGFrame, in bytes: UnsafeRawBufferPointer, header: PNGHeader, sharedChunks: [PNGChunk],
    usesFastPath: Bool
  ) throws(MagpieError) -> PixelBuffer {
    let stream = try frame.standaloneStream(in: bytes, header: header, sharedChunks: sharedChunks)
    let result: Result<PixelBuffer, MagpieError> = stream.withUnsafeBytes { raw in
      Result { () throws(MagpieError) -> PixelBuffer in
        let reader = try PNGReader(raw, usesFastPath: usesFastPath)
        _ = try reader.readHeader()
        return try reader.readPixels()
      }
    }
    return try result.get()
  }
}
