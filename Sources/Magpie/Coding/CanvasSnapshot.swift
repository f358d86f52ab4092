/// Copies a composited animation canvas (straight RGBA, rows packed)
/// into a new frame buffer and notes whether it is opaque; the GIF
/// compositor hands out frames this way.
enum CanvasSnapshot {
  /// A buffer holding a copy of the `width` by `height` canvas at `canvas`.
  static func pixels(copying canvas: UnsafeRawPointer, width: Int, height: Int) -> PixelBuffer {
    let count = width * height
    return PixelBuffer(uninitializedWidth: width, height: height, alpha: .straight) { raw in
      raw.baseAddress!.copyMemory(from: canvas, byteCount: count * PixelBuffer.bytesPerPixel)
      return PixelBuffer.allOpaque(UnsafeRawBufferPointer(raw))
    }
  }
}
