/// Turns one stored row of an uncompressed BMP into straight RGBA8, and
/// remembers what the alpha it wrote says about the whole image.
struct BMPRowConverter {
  private let header: BMPHeader
  private let tables: [[UInt8]?]
  /// The OR of every alpha written (32-bit `BI_RGB`: all zero means opaque).
  private(set) var alphaSeen: UInt8 = 0
  /// The AND of every alpha written (all 255 means opaque).
  private(set) var alphaAll: UInt8 = 0xFF

  /// A converter for the rows `header` describes.
  init(header: BMPHeader) {
    self.header = header
    tables = header.bitfields?.fields.map(\.table) ?? []
  }

  /// Converts the stored row at `source` into `width` pixels at `output`.
  mutating func convert(_ source: UnsafePointer<UInt8>, into output: UnsafeMutableRawPointer) {
    let width = header.size.width
    switch header.bitCount {
    case 1, 2, 4, 8: palette(source, output, width)
    case 24:
      for x in 0..<width {
        let s = source + 3 * x
        output.storeBytes(
          of: UInt32(s[2]) | UInt32(s[1]) << 8 | UInt32(s[0]) << 16 | 0xFF00_0000, toByteOffset: 4 * x, as: UInt32.self)
      }
    default:
      if header.bitCount == 32, header.bitfields?.isByteAlignedBGRA == true {
        bgra(source, output, width, alpha: header.bitfields?.hasAlpha == true)
      } else {
        masked(source, output, width)
      }
    }
  }

  private func palette(_ source: UnsafePointer<UInt8>, _ output: UnsafeMutableRawPointer, _ width: Int) {
    header.palette.withUnsafeBufferPointer { table in
      let bits = header.bitCount
      if bits == 8 {
        for x in 0..<width { output.storeBytes(of: table[Int(source[x])], toByteOffset: 4 * x, as: UInt32.self) }
        return
      }
      let perByte = 8 / bits
      let mask = (1 << bits) - 1
      for x in 0..<width {
        let byte = Int(source[x / perByte])
        let index = (byte >> (8 - bits * (x % perByte + 1))) & mask
        output.storeBytes(of: table[index], toByteOffset: 4 * x, as: UInt32.self)
      }
    }
  }

  private mutating func bgra(
    _ source: UnsafePointer<UInt8>, _ output: UnsafeMutableRawPointer, _ width: Int, alpha: Bool
  ) {
    var seen: UInt8 = 0
    var all: UInt8 = 0xFF
    for x in 0..<width {
      let s = source + 4 * x
      let a = alpha ? s[3] : 0xFF
      seen |= a
      all &= a
      output.storeBytes(
        of: UInt32(s[2]) | UInt32(s[1]) << 8 | UInt32(s[0]) << 16 | UInt32(a) << 24, toByteOffset: 4 * x,
        as: UInt32.self)
    }
    alphaSeen |= seen
    alphaAll &= all
  }

  private mutating func masked(_ source: UnsafePointer<UInt8>, _ output: UnsafeMutableRawPointer, _ width: Int) {
    guard let fields = header.bitfields?.fields else { return }
    let wide = header.bitCount == 32
    var seen: UInt8 = 0
    var all: UInt8 = 0xFF
    withTables { r, g, b, a in
      for x in 0..<width {
        let s = source + (wide ? 4 : 2) * x
        var pixel = UInt32(s[0]) | UInt32(s[1]) << 8
        if wide { pixel |= UInt32(s[2]) << 16 | UInt32(s[3]) << 24 }
        let alpha = fields[3].width > 0 ? fields[3].value(in: pixel, table: a) : 0xFF
        seen |= alpha
        all &= alpha
        let red = UInt32(fields[0].value(in: pixel, table: r))
        let green = UInt32(fields[1].value(in: pixel, table: g))
        let blue = UInt32(fields[2].value(in: pixel, table: b))
        output.storeBytes(
          of: red | green << 8 | blue << 16 | UInt32(alpha) << 24, toByteOffset: 4 * x, as: UInt32.self)
      }
    }
    alphaSeen |= seen
    alphaAll &= all
  }

  /// Runs `body` with each channel's lookup table (`nil` for fields wider
  /// than 16 bits, which are computed, and for absent ones).
  private func withTables(
    _ body: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) -> Void
  ) {
    func pointer(_ i: Int, _ next: (UnsafePointer<UInt8>?) -> Void) {
      guard let table = tables[i] else { return next(nil) }
      table.withUnsafeBufferPointer { next($0.baseAddress) }
    }
    pointer(0) { r in pointer(1) { g in pointer(2) { b in pointer(3) { a in body(r, g, b, a) } } } }
  }
}
