/// Decodes `BI_RLE8` and `BI_RLE4` pixel data onto a transparent canvas.
///
/// Codes: a count and an index (RLE4: two indices, alternating) repeat;
/// `0 0` ends the line, `0 1` the bitmap, `0 2 dx dy` moves right and down
/// the stored rows; `0 n` is n literal indices padded to a 16-bit boundary.
/// Pixels no code reaches stay transparent black, as browsers draw them;
/// runs past a row's end and moves out of the image are clipped, never
/// written outside the canvas.
struct BMPRLEDecoder {
  /// Whether the data ended before the end-of-bitmap code.
  private(set) var isTruncated = false
  /// How many pixels the codes filled.
  private(set) var filled = 0

  private let header: BMPHeader
  private var x = 0
  private var row = 0

  /// A decoder for the pixels `header` describes.
  init(header: BMPHeader) { self.header = header }

  /// Decodes `data` (the bytes from the pixel offset on) into `canvas`,
  /// which holds `header.size` zeroed RGBA8 pixels.
  mutating func decode(
    _ data: UnsafeRawBufferPointer, into canvas: UnsafeMutableRawBufferPointer, deadline: DecodeDeadline
  ) throws(MagpieError) {
    let nibbles = header.compression == .rle4
    var at = 0
    func byte() -> Int? {
      guard at < data.count else { return nil }
      defer { at += 1 }
      return Int(data[at])
    }
    while true {
      guard let count = byte(), let value = byte() else { return isTruncated = true }
      if count > 0 {
        for i in 0..<count {
          put(nibbles ? (i % 2 == 0 ? value >> 4 : value & 15) : value, canvas)
        }
        continue
      }
      switch value {
      case 0:
        try deadline.check("the bmp image")
        x = 0
        row += 1
      case 1: return
      case 2:
        guard let dx = byte(), let dy = byte() else { return isTruncated = true }
        x += dx
        row += dy
      default:
        let bytes = nibbles ? (value + 1) / 2 : value
        guard at + bytes <= data.count else { return isTruncated = true }
        for i in 0..<value {
          let source = Int(data[at + (nibbles ? i / 2 : i)])
          put(nibbles ? (i % 2 == 0 ? source >> 4 : source & 15) : source, canvas)
        }
        at += bytes + (bytes & 1)
      }
      if row >= header.size.height { return }
    }
  }

  /// Writes palette entry `index` at the current position and moves right.
  private mutating func put(_ index: Int, _ canvas: UnsafeMutableRawBufferPointer) {
    defer { x += 1 }
    let size = header.size
    guard x < size.width, row < size.height else { return }
    let y = header.isTopDown ? row : size.height - 1 - row
    canvas.storeBytes(of: header.palette[index], toByteOffset: 4 * (y * size.width + x), as: UInt32.self)
    filled += 1
  }
}
