import CWebP

/// Decodes a WebP animation frame by frame and composites it on a canvas of
/// our own, with straight alpha, as the WebP container specification
/// describes and browsers show it: the canvas starts transparent (the
/// background colour is ignored, as browsers do), each frame is decoded on
/// its own (`MODE_RGBA`, exactly what `dwebp` gives for it), drawn with
/// alpha blending or replacing its rectangle, and its rectangle is cleared
/// to transparent afterwards when it says so.
///
/// libwebp's `WebPAnimDecoder` is not used for this: in straight-alpha mode
/// it truncates (1 level off over opaque and empty pixels) and over
/// semi-transparent pixels it is up to 11 levels off exact "over".
/// ``APNGCompositor`` does the same job for APNG and rounds each blend once
/// from exact integers, so both formats share it. ``WebPFrameSource`` draws
/// one frame at a time with the same per-frame functions.
enum WebPAnimationDecoder {
  /// The first `frameCount` composited frames of the animation in
  /// `container`, whose frame limits the caller has checked.
  static func frames(
    in container: WebPContainer, frameCount: Int, options: DecodeOptions
  ) throws(MagpieError) -> [ImageFrame] {
    var compositor = APNGCompositor(size: PixelSize(width: container.width, height: container.height))
    var frames: [ImageFrame] = []
    frames.reserveCapacity(frameCount)
    let deadline = options.startDeadline()
    try container.forEachFrame(upTo: frameCount) { (frame) throws(MagpieError) in
      let index = frames.count
      // libwebp decodes a frame in one call: the deadline holds between them.
      try deadline.check("webp frame \(index + 1)")
      let control = try control(of: frame, index: index, in: container)
      let pixels = try pixels(of: frame, index: index, control: control, options: options)
      frames.append(
        ImageFrame(
          pixels: compositor.render(pixels, control: control),
          duration: ImageFrame.browserDuration(milliseconds: Int(frame.duration))))
    }
    return frames
  }

  /// How frame `index` (0 is the first) is drawn, checked to lie inside the
  /// canvas.
  static func control(
    of frame: WebPIterator, index: Int, in container: WebPContainer
  ) throws(MagpieError) -> APNGFrameControl {
    let control = APNGFrameControl(
      x: Int(frame.x_offset), y: Int(frame.y_offset), width: Int(frame.width), height: Int(frame.height),
      milliseconds: Int(frame.duration),
      disposeOp: frame.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND ? .background : .none,
      blendOp: frame.blend_method == WEBP_MUX_BLEND ? .over : .source)
    guard control.width > 0, control.height > 0, control.x + control.width <= container.width,
      control.y + control.height <= container.height
    else {
      throw MagpieError(.corruptData, "webp animation frame \(index + 1) lies outside its canvas")
    }
    return control
  }

  /// Frame `index`'s own pixels, the size of `control`'s rectangle.
  static func pixels(
    of frame: WebPIterator, index: Int, control: APNGFrameControl, options: DecodeOptions
  ) throws(MagpieError) -> PixelBuffer {
    guard let bytes = frame.fragment.bytes, frame.fragment.size > 0 else {
      throw MagpieError(.truncatedData, "webp animation frame \(index + 1) has no image data")
    }
    let pixels: PixelBuffer
    do throws(MagpieError) {
      pixels = try WebPDecoder.decodeStill(
        UnsafeRawBufferPointer(start: bytes, count: frame.fragment.size), orientation: .up,
        options: DecodeOptions(maxPixelCount: options.maxPixelCount), threads: false)
    } catch {
      throw MagpieError(error.code, "webp animation frame \(index + 1): \(error.reason)")
    }
    guard pixels.size == PixelSize(width: control.width, height: control.height) else {
      throw MagpieError(
        .corruptData,
        "webp animation frame \(index + 1) holds a \(pixels.size) image in a \(control.width)x"
          + "\(control.height) rectangle")
    }
    return pixels
  }
}
