/// Decodes the pixels a ``BMPHeader`` describes into straight RGBA8.
enum BMPDecoder {
  /// The decoded pixels and whether the data ended before the image did.
  struct Result {
    /// The pixels, straight alpha; rows the data did not reach transparent.
    var pixels: PixelBuffer
    /// True when the data ended early (only with `allowsPartialImage`).
    var isPartial: Bool
    /// Whether the stored pixels carry alpha that is used (an alpha mask,
    /// or 32-bit `BI_RGB` with a non-zero fourth byte), which an icon's AND
    /// mask then does not override.
    var usesAlpha = false
  }

  /// Decodes the image in `b`, whose headers are `header`: the pixel limit
  /// is checked against the declared size before anything is allocated,
  /// and uncompressed data must hold at least one whole row. Complete
  /// uncompressed rows larger than `options.targetSize` needs are shrunk
  /// while they are read (``BMPReducedDecoder``) by 2, 4 or 8.
  static func decode(
    _ b: UnsafeRawBufferPointer, header: BMPHeader, options: DecodeOptions
  ) throws(MagpieError) -> Result {
    let uncompressed = header.compression == .none || header.compression == .bitfields
    let factor = uncompressed ? options.shrinkDenominator(for: header.size, orientation: .up) : 1
    let reduced = PixelSize(
      width: (header.size.width + factor - 1) / factor, height: (header.size.height + factor - 1) / factor)
    try options.checkPixelLimit(decoded: reduced, declared: header.size)
    guard header.pixelOffset < b.count else {
      throw MagpieError(
        .truncatedData, "bmp pixel data starts at \(header.pixelOffset), past the file's \(b.count) bytes")
    }
    let deadline = options.startDeadline()
    let data = UnsafeRawBufferPointer(rebasing: b[header.pixelOffset...])
    if header.compression == .rle4 || header.compression == .rle8 {
      return try decodeRLE(data, header: header, options: options, deadline: deadline)
    }
    let size = header.size
    let stride = header.rowStride
    let rows = min(size.height, data.count / stride)
    guard rows == size.height || (options.allowsPartialImage && rows > 0) else {
      throw MagpieError(
        .truncatedData, "bmp pixel data ends after \(rows) of \(size.height) rows (\(data.count) bytes)")
    }
    if factor > 1 && rows == size.height {
      // Shrink on load: the full-size pixels are never held.
      let pixels = try BMPReducedDecoder.decode(data, header: header, factor: factor, deadline: deadline)
      return Result(pixels: pixels, isPartial: false, usesAlpha: !pixels.isOpaque)
    }
    var converter = BMPRowConverter(header: header)
    var pixels = try PixelBuffer(uninitializedWidth: size.width, height: size.height, alpha: .straight) {
      (raw: UnsafeMutableRawBufferPointer) throws(MagpieError) -> Bool in
      if rows < size.height { raw.initializeMemory(as: UInt8.self, repeating: 0) }
      let source = data.baseAddress!.assumingMemoryBound(to: UInt8.self)
      for i in 0..<rows {
        if i & 63 == 63 { try deadline.check("the bmp image") }
        let y = header.isTopDown ? i : size.height - 1 - i
        converter.convert(source + i * stride, into: raw.baseAddress! + y * size.width * 4)
      }
      return rows == size.height && converter.alphaAll == 0xFF
    }
    if header.guessesAlpha && converter.alphaSeen == 0 {
      // Chromium's rule: a 32-bit BI_RGB image whose fourth bytes are all
      // zero does not use them as alpha.
      setOpaque(&pixels, rows: rows, bottomUp: !header.isTopDown)
    }
    let usesAlpha = (header.bitfields?.hasAlpha == true || header.guessesAlpha) && converter.alphaSeen != 0
    return Result(pixels: pixels, isPartial: rows < size.height, usesAlpha: usesAlpha)
  }

  private static func decodeRLE(
    _ data: UnsafeRawBufferPointer, header: BMPHeader, options: DecodeOptions, deadline: DecodeDeadline
  ) throws(MagpieError) -> Result {
    var rle = BMPRLEDecoder(header: header)
    let size = header.size
    let pixels = try PixelBuffer(uninitializedWidth: size.width, height: size.height, alpha: .straight) {
      (raw: UnsafeMutableRawBufferPointer) throws(MagpieError) -> Bool in
      raw.initializeMemory(as: UInt8.self, repeating: 0)
      try rle.decode(data, into: raw, deadline: deadline)
      return rle.filled == size.pixelCount
    }
    if rle.isTruncated && !options.allowsPartialImage {
      throw MagpieError(.truncatedData, "bmp run-length data ends before its end-of-bitmap code")
    }
    return Result(pixels: pixels, isPartial: rle.isTruncated)
  }

  /// Sets alpha to 255 in the `rows` rows decoded (the bottom ones when
  /// `bottomUp`), leaving rows the data never reached transparent; marks
  /// the buffer opaque when that is every row.
  private static func setOpaque(_ pixels: inout PixelBuffer, rows: Int, bottomUp: Bool) {
    let first = bottomUp ? pixels.height - rows : 0
    let width = pixels.width
    pixels.withUnsafeMutableBytes { raw in
      for i in (first * width)..<((first + rows) * width) { raw[4 * i + 3] = 0xFF }
    }
    pixels.isOpaque = rows == pixels.height
  }
}
