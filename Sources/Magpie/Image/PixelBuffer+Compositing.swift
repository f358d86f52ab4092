extension PixelBuffer {
  /// Draws `source` with its top-left corner at (`x`, `y`), blending
  /// premultiplied source-over; parts outside this buffer are clipped.
  /// Both are premultiplied first where they are not, so the result is
  /// premultiplied.
  public mutating func draw(_ source: PixelBuffer, atX x: Int, y: Int) {
    self = premultiplied()
    let source = source.premultiplied()
    let x0 = max(0, x)
    let y0 = max(0, y)
    let x1 = min(width, x + source.width)
    let y1 = min(height, y + source.height)
    guard x0 < x1, y0 < y1 else { return }
    let dstStride = bytesPerRow
    // Source-over onto an opaque destination stays opaque.
    withUnsafeMutableBytes(keepsOpaque: true) { dst in
      source.withUnsafeBytes { src in
        for row in y0..<y1 {
          let d = dst.baseAddress! + row * dstStride
          let s = src.baseAddress! + (row - y) * source.bytesPerRow
          for col in x0..<x1 {
            let sp = s.loadUnaligned(fromByteOffset: (col - x) * 4, as: SIMD4<UInt8>.self)
            let alpha = UInt16(sp[3])
            if alpha == 255 {
              d.storeBytes(of: sp, toByteOffset: col * 4, as: SIMD4<UInt8>.self)
            } else if alpha != 0 {
              // out = src + dst * (1 - srcAlpha), rounded.
              let dp = SIMD4<UInt16>(
                truncatingIfNeeded: d.loadUnaligned(fromByteOffset: col * 4, as: SIMD4<UInt8>.self))
              var t = dp &* SIMD4(repeating: 255 - alpha) &+ SIMD4(repeating: 128)
              t = (t &+ (t &>> 8)) &>> 8
              let out = SIMD4<UInt16>(truncatingIfNeeded: sp) &+ t
              d.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: out), toByteOffset: col * 4, as: SIMD4<UInt8>.self)
            }
          }
        }
      }
    }
  }

  /// Fills the whole buffer with one premultiplied colour; the buffer is
  /// premultiplied afterwards.
  public mutating func fill(_ color: SIMD4<UInt8>) {
    let (rowBytes, rows, stride) = (width * 4, height, bytesPerRow)
    withUnsafeMutableBytes { raw in
      for row in 0..<rows {
        let base = raw.baseAddress! + row * stride
        for col in Swift.stride(from: 0, to: rowBytes, by: 4) {
          base.storeBytes(of: color, toByteOffset: col, as: SIMD4<UInt8>.self)
        }
      }
    }
    isOpaque = color[3] == 255
    alphaRepresentation = .premultiplied
  }
}
