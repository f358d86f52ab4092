/// An interleaved RGB or RGBA plane libheif decoded, 8 bits a sample or up
/// to 16 (little-endian, `bits` of them used), and its copy into RGBA8.
struct HEIFPlane {
  /// The first row.
  let base: UnsafeRawPointer
  /// Bytes from one row to the next.
  let stride: Int
  /// Pixels a row.
  let width: Int
  /// Rows.
  let height: Int
  /// 3 (RGB) or 4 (RGBA).
  let channels: Int
  /// Bits a sample: 8, or the range of a deeper image (10, 12).
  let bits: Int
  /// Whether the alpha channel is the image's (else 255 filled in by libheif).
  let hasAlpha: Bool

  /// Writes tightly packed RGBA8 into `out`, alpha 255 where the plane has
  /// none, samples deeper than 8 bits rounded to the nearest 8-bit value
  /// (`(v * 255 + max / 2) / max`). Returns whether every pixel is opaque.
  func copyRGBA8(into out: UnsafeMutableRawBufferPointer) -> Bool {
    let destination = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
    let maximum = UInt32((1 << bits) - 1)
    var opaque = true
    for y in 0..<height {
      let row = destination + y * width * 4
      if bits == 8 {
        let source = (base + y * stride).assumingMemoryBound(to: UInt8.self)
        if channels == 4 {
          row.update(from: source, count: width * 4)
          if hasAlpha { for x in 0..<width where source[x * 4 + 3] != 255 { opaque = false } }
        } else {
          for x in 0..<width {
            row[x * 4] = source[x * 3]
            row[x * 4 + 1] = source[x * 3 + 1]
            row[x * 4 + 2] = source[x * 3 + 2]
            row[x * 4 + 3] = 255
          }
        }
        continue
      }
      let source = base + y * stride
      for x in 0..<width {
        for c in 0..<4 {
          guard c < channels else {
            row[x * 4 + c] = 255
            continue
          }
          let offset = (x * channels + c) * 2
          // Little-endian 16-bit sample, read bytewise (rows need no alignment).
          let v =
            UInt32(source.load(fromByteOffset: offset, as: UInt8.self))
            | UInt32(source.load(fromByteOffset: offset + 1, as: UInt8.self)) << 8
          let value = UInt8(truncatingIfNeeded: (min(v, maximum) * 255 + maximum / 2) / maximum)
          row[x * 4 + c] = value
          if c == 3 && value != 255 { opaque = false }
        }
      }
    }
    return opaque
  }
}
