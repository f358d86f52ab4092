import Dispatch

extension Image {
  /// The image with `transform` applied to every frame (or only the first),
  /// keeping frame durations, loop count, format, scale and orientation.
  /// `nil` if any frame fails or the frames come back in different sizes.
  /// The original bytes are dropped: they no longer describe the pixels.
  func mappingFrames(firstFrameOnly: Bool, _ transform: (PixelBuffer) -> PixelBuffer?) -> Image? {
    let sources = firstFrameOnly ? [frames[0]] : frames
    var results = [PixelBuffer?](repeating: nil, count: sources.count)
    let work = sources.reduce(0) { $0 + $1.pixels.width * $1.pixels.height }
    if sources.count > 1 && work >= RowParallelism.minimumChunkCost * 2 {
      // Frames are independent: run them side by side (each frame's own
      // row splitting then has little left to split).
      results.withUnsafeMutableBufferPointer { out in
        withoutActuallyEscaping(transform) { transform in
          // Each iteration writes only its own slot, and concurrentPerform
          // returns after the last: sharing both across threads is safe.
          let shared = UncheckedSendable((out, transform))
          DispatchQueue.concurrentPerform(iterations: sources.count) { index in
            shared.value.0[index] = shared.value.1(sources[index].pixels)
          }
        }
      }
    } else {
      for index in sources.indices { results[index] = transform(sources[index].pixels) }
    }
    var newFrames: [ImageFrame] = []
    newFrames.reserveCapacity(sources.count)
    for (frame, pixels) in zip(sources, results) {
      guard let pixels, pixels.size == (results[0]?.size ?? pixels.size) else { return nil }
      newFrames.append(
        ImageFrame(pixels: pixels, duration: sources.count == 1 && firstFrameOnly ? .zero : frame.duration))
    }
    return Image(
      frames: newFrames, loopCount: newFrames.count > 1 ? loopCount : (frames.count > 1 ? 0 : loopCount),
      format: format, scale: scale, orientation: orientation, isPartial: isPartial)
  }
}
