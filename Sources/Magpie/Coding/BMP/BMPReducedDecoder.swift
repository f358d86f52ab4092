/// Decodes uncompressed BMP rows straight to a fraction of their size,
/// averaging each block of `factor` x `factor` pixels: a BMP's shrink on
/// load, as libjpeg's DCT scaling is a JPEG's. A thumbnail of a large BMP
/// then never holds the full-size pixels.
///
/// Blocks are averaged with alpha weighting (colour times alpha, divided by
/// the alpha), so transparent pixels lend no colour to their neighbours;
/// the result is straight alpha. Blocks at the right and bottom edges
/// average the pixels they have.
enum BMPReducedDecoder {
  /// Decodes the complete uncompressed rows of `data` (from the pixel
  /// offset on) at 1/`factor` of `header.size`, rounding up.
  static func decode(
    _ data: UnsafeRawBufferPointer, header: BMPHeader, factor: Int, deadline: DecodeDeadline
  ) throws(MagpieError) -> PixelBuffer {
    let width = header.size.width
    let height = header.size.height
    let out = PixelSize(width: (width + factor - 1) / factor, height: (height + factor - 1) / factor)
    let stride = header.rowStride
    let source = data.baseAddress!.assumingMemoryBound(to: UInt8.self)
    // 32-bit BI_RGB: whether the fourth bytes are alpha is known only from
    // all of them (Chromium's rule), so look before decoding.
    // Rows without alpha (or whose fourth bytes are not alpha) are summed
    // unweighted.
    let hasAlpha = header.bitfields?.hasAlpha == true
    let weighted = hasAlpha && !(header.guessesAlpha && !anyAlpha(source, header: header))
    var converter = BMPRowConverter(header: header)
    var row = [UInt8](repeating: 0, count: width * 4)
    var sums = [UInt32](repeating: 0, count: out.width * 4)
    return try PixelBuffer(uninitializedWidth: out.width, height: out.height, alpha: .straight) {
      (raw: UnsafeMutableRawBufferPointer) throws(MagpieError) -> Bool in
      var allOpaque = true
      for oy in 0..<out.height {
        try deadline.check("the bmp image")
        let top = oy * factor
        let bottom = min(height, top + factor)
        sums.withUnsafeMutableBufferPointer { sum in
          sum.update(repeating: 0)
          row.withUnsafeMutableBytes { line in
            for y in top..<bottom {
              let stored = header.isTopDown ? y : height - 1 - y
              converter.convert(source + stored * stride, into: line.baseAddress!)
              accumulate(line, into: sum, width: width, factor: factor, weighted: weighted)
            }
          }
          let target = raw.baseAddress! + oy * out.width * 4
          allOpaque =
            store(sum, to: target, width: width, rows: bottom - top, factor: factor, weighted: weighted) && allOpaque
        }
      }
      return allOpaque
    }
  }

  /// Adds one converted row into the block sums: colour times alpha, and
  /// alpha; or, for opaque pixels, colour alone (``store(_:to:width:rows:factor:weighted:)``
  /// is told which).
  @inline(__always)
  private static func accumulate(
    _ line: UnsafeMutableRawBufferPointer, into sum: UnsafeMutableBufferPointer<UInt32>, width: Int, factor: Int,
    weighted: Bool
  ) {
    let p = line.baseAddress!
    var x = 0
    var o = 0
    while x < width {
      let end = min(width, x + factor)
      var r: UInt32 = 0
      var g: UInt32 = 0
      var b: UInt32 = 0
      var a: UInt32 = 0
      if weighted {
        while x < end {
          let px = p.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
          let alpha = px >> 24
          r &+= (px & 0xFF) &* alpha
          g &+= (px >> 8 & 0xFF) &* alpha
          b &+= (px >> 16 & 0xFF) &* alpha
          a &+= alpha
          x += 1
        }
      } else {
        while x < end {
          let px = p.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
          r &+= px & 0xFF
          g &+= px >> 8 & 0xFF
          b &+= px >> 16 & 0xFF
          x += 1
        }
      }
      sum[o] &+= r
      sum[o + 1] &+= g
      sum[o + 2] &+= b
      sum[o + 3] &+= a
      o += 4
    }
  }

  /// Writes one output row from the block sums; whether it is all opaque.
  private static func store(
    _ sum: UnsafeMutableBufferPointer<UInt32>, to target: UnsafeMutableRawPointer, width: Int, rows: Int, factor: Int,
    weighted: Bool
  ) -> Bool {
    var opaque = true
    let outWidth = (width + factor - 1) / factor
    for ox in 0..<outWidth {
      let count = UInt32((min(width, (ox + 1) * factor) - ox * factor) * rows)
      // Unweighted sums are of opaque pixels: divide by the count.
      let alpha = weighted ? sum[4 * ox + 3] : count
      let a = weighted ? (alpha + count / 2) / count : 255
      opaque = opaque && a == 255
      var pixel = a << 24
      if alpha > 0 {
        for c in 0..<3 { pixel |= ((sum[4 * ox + c] + alpha / 2) / alpha) << (8 * UInt32(c)) }
      }
      target.storeBytes(of: pixel, toByteOffset: 4 * ox, as: UInt32.self)
    }
    return opaque
  }

  /// Whether any 32-bit pixel's fourth byte is non-zero.
  private static func anyAlpha(_ source: UnsafePointer<UInt8>, header: BMPHeader) -> Bool {
    for y in 0..<header.size.height {
      let line = source + y * header.rowStride
      for x in 0..<header.size.width where line[4 * x + 3] != 0 { return true }
    }
    return false
  }
}
