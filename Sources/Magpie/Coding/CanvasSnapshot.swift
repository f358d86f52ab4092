/// Copies a composited animation canvas (straight RGBA, rows packed)
/// into a new frame buffer and notes whether it is opaque; the GIF
/// compositor and the WebP animation decoder both hand out frames this way.
enum CanvasSnapshot {
  /// A buffer holding a copy of the `width` by `height` canvas at `canvas`.
  static func pixels(copying canvas: UnsafeRawPointer, width: Int, height: Int) -> PixelBuffer {
    let count = width * height
    return PixelBuffer(uninitializedWidth: width, height: height, alpha: .straight) { raw in
      raw.baseAddress!.copyMemory(from: canvas, byteCount: count * PixelBuffer.bytesPerPixel)
      // Opaque when every alpha byte is 0xFF: AND all pixels together.
      let words = raw.bindMemory(to: UInt32.self)
      var all = UInt32.max
      for word in words { all &= word }
      return UInt32(littleEndian: all) >> 24 == 0xFF
    }
  }
}
