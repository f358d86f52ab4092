import CWebP
import Foundation

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
    var iterators: [WebPIterator] = []
    iterators.reserveCapacity(frameCount)
    try container.forEachFrame(upTo: frameCount) { (frame) throws(MagpieError) in iterators.append(frame) }
    var controls: [APNGFrameControl] = []
    for (index, frame) in iterators.enumerated() {
      controls.append(try control(of: frame, index: index, in: container))
    }
    var frames: [ImageFrame] = []
    frames.reserveCapacity(iterators.count)
    let deadline = options.startDeadline()
    while frames.count < iterators.count {
      // libwebp decodes a frame in one call: the deadline holds between them.
      try deadline.check("webp frame \(frames.count + 1)")
      let batch = batchSize(remaining: iterators.count - frames.count)
      let decoded = try decode(iterators, controls, from: frames.count, count: batch, options: options)
      for pixels in decoded {
        let index = frames.count
        frames.append(
          ImageFrame(
            pixels: compositor.render(pixels, control: controls[index]),
            duration: ImageFrame.browserDuration(milliseconds: Int(iterators[index].duration))))
      }
    }
    return frames
  }

  /// How many frames to decode side by side next: each frame's bitstream
  /// decodes on its own (only compositing is in order), so while a core
  /// idles the next few decode together; one at a time otherwise.
  private static func batchSize(remaining: Int) -> Int {
    guard remaining > 1, CodecLoad.shared.hasIdleCore else { return 1 }
    return min(remaining, max(2, min(4, ProcessInfo.processInfo.activeProcessorCount)))
  }

  /// Frames `first ..< first + count` decoded, side by side when more than one.
  private static func decode(
    _ iterators: [WebPIterator], _ controls: [APNGFrameControl], from first: Int, count: Int, options: DecodeOptions
  ) throws(MagpieError) -> [PixelBuffer] {
    if count == 1 {
      return [try pixels(of: iterators[first], index: first, control: controls[first], options: options)]
    }
    var results = [Result<PixelBuffer, MagpieError>?](repeating: nil, count: count)
    results.withUnsafeMutableBufferPointer { out in
      // Each iteration writes only its own slot and reads frames whose
      // bytes the container keeps alive; concurrentPerform returns after
      // the last: sharing them across its threads is safe.
      let shared = UncheckedSendable((out, iterators, controls))
      DispatchQueue.concurrentPerform(iterations: count) { offset in
        let index = first + offset
        shared.value.0[offset] = Result { () throws(MagpieError) -> PixelBuffer in
          try pixels(of: shared.value.1[index], index: index, control: shared.value.2[index], options: options)
        }
      }
    }
    return try results.map { (result) throws(MagpieError) -> PixelBuffer in try result!.get() }
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
