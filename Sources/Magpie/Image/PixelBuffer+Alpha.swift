import CMagpieCodecs

extension PixelBuffer {
  /// The same pixels with premultiplied colour, what drawing, compositing
  /// and resampling need: `self` when it already is (or is opaque, where the
  /// bytes are the same and only the label changes), else a copy
  /// premultiplied as `round(c * a / 255)`.
  public func premultiplied() -> PixelBuffer {
    if alphaRepresentation == .premultiplied { return self }
    if isOpaque {
      var relabelled = self
      relabelled.alphaRepresentation = .premultiplied
      return relabelled
    }
    // One pass from these bytes into new ones: no copy to premultiply in.
    let (w, h, stride) = (width, height, bytesPerRow)
    return withUnsafeBytes { src in
      PixelBuffer(uninitializedWidth: w, height: h, alpha: .premultiplied) { dst in
        guard w > 0, h > 0 else { return true }
        return mp_premultiply_copy(
          src.baseAddress!.assumingMemoryBound(to: UInt8.self), stride,
          dst.baseAddress!.assumingMemoryBound(to: UInt8.self), w * PixelBuffer.bytesPerPixel, w, h) == 255
      }
    }
  }

  /// The pixels as tightly packed straight-alpha RGBA (`width * 4` bytes a
  /// row), what encoders and `magpie decode` want. Exact for straight
  /// buffers (no copy at all when the rows are already packed); premultiplied
  /// ones are divided back, which cannot restore colour lost at low alpha.
  public func straightRGBA() -> [UInt8] {
    let rowBytes = width * Self.bytesPerPixel
    let keepsBytes = alphaRepresentation == .straight || isOpaque
    if keepsBytes && rowBytes == bytesPerRow && bytes.count == rowBytes * height { return bytes }
    var out = packedBytes()
    if !keepsBytes { out.withUnsafeMutableBytes { Self.unpremultiply($0) } }
    return out
  }

  /// Premultiplies straight-alpha RGBA in place; returns whether every pixel
  /// was opaque.
  @discardableResult
  public static func premultiply(_ rgba: UnsafeMutableRawBufferPointer) -> Bool {
    let pixels = rgba.count / bytesPerPixel
    guard pixels > 0 else { return true }
    return mp_premultiply_rows(rgba.baseAddress!.assumingMemoryBound(to: UInt8.self), pixels, 1, 0) == 255
  }

  /// Turns premultiplied RGBA back into straight alpha in place.
  public static func unpremultiply(_ rgba: UnsafeMutableRawBufferPointer) {
    let p = rgba.bindMemory(to: UInt8.self)
    var i = 0
    while i + 3 < p.count {
      let a = UInt32(p[i + 3])
      if a == 0 {
        p[i] = 0
        p[i + 1] = 0
        p[i + 2] = 0
      } else if a != 255 {
        let half = a / 2
        p[i] = UInt8(min(255, (UInt32(p[i]) * 255 + half) / a))
        p[i + 1] = UInt8(min(255, (UInt32(p[i + 1]) * 255 + half) / a))
        p[i + 2] = UInt8(min(255, (UInt32(p[i + 2]) * 255 + half) / a))
      }
      i += 4
    }
  }

  /// Whether every alpha byte of packed RGBA is 255: AND the pixels as words.
  static func allOpaque(_ rgba: UnsafeRawBufferPointer) -> Bool {
    var all = UInt32.max
    let whole = rgba.count / 4 * 4
    if let base = rgba.baseAddress, Int(bitPattern: base) % MemoryLayout<UInt32>.alignment == 0 {
      // Aligned words: a plain loop over them vectorizes.
      UnsafeRawBufferPointer(start: base, count: whole).withMemoryRebound(to: UInt32.self) { words in
        for word in words { all &= word }
      }
    } else {
      for offset in Swift.stride(from: 0, to: whole, by: 4) {
        all &= rgba.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
      }
    }
    return UInt32(littleEndian: all) >> 24 == 0xFF
  }
}
