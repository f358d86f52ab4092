/// What a BMP's file header and DIB header declare: read and checked before
/// any pixel memory is taken.
///
/// Reads the 12-byte BITMAPCOREHEADER, OS/2 2.x headers (16 and 64 bytes),
/// BITMAPINFOHEADER (40) and its V2 (52), V3 (56), V4 (108) and V5 (124)
/// extensions.
struct BMPHeader {
  /// How the pixel data is stored.
  enum Compression: Equatable {
    /// Rows of packed pixels (`BI_RGB`), palette indices up to 8 bits.
    case none
    /// 8-bit palette indices, run-length encoded (`BI_RLE8`).
    case rle8
    /// 4-bit palette indices, run-length encoded (`BI_RLE4`).
    case rle4
    /// 16- or 32-bit pixels whose channels the masks place (`BI_BITFIELDS`,
    /// `BI_ALPHABITFIELDS`).
    case bitfields
  }

  /// The DIB header's size in bytes, which says its version.
  let headerSize: Int
  /// The image's size.
  let size: PixelSize
  /// Whether the first stored row is the top one (a negative height).
  let isTopDown: Bool
  /// Bits per pixel: 1, 2, 4, 8, 16, 24 or 32.
  let bitCount: Int
  /// How the pixels are stored.
  let compression: Compression
  /// Where each channel lies, for 16- and 32-bit pixels.
  let bitfields: BMPBitfields?
  /// Whether the top byte of 32-bit `BI_RGB` pixels is alpha when any pixel
  /// sets it (Chromium's rule; otherwise the image is opaque).
  var guessesAlpha: Bool { compression == .none && bitCount == 32 }
  /// The colour table as RGBA8 words (R in the low byte), 256 entries for
  /// palette images, missing entries opaque black; empty otherwise.
  let palette: [UInt32]
  /// Where the pixel data starts in the file.
  let pixelOffset: Int
  /// The embedded ICC profile's bytes in the file (V5, `PROFILE_EMBEDDED`).
  let iccRange: Range<Int>?

  /// Bytes in one stored row of uncompressed pixels, padded to 4.
  var rowStride: Int { (size.width * bitCount + 31) / 32 * 4 }

  /// Reads the headers at the start of `b`.
  init(_ b: UnsafeRawBufferPointer) throws(MagpieError) {
    let reader = BMPBytes(b)
    guard b.count >= 18 else { throw MagpieError(.truncatedData, "bmp file header ends early (\(b.count) bytes)") }
    guard b[0] == 0x42, b[1] == 0x4D else { throw MagpieError(.corruptData, "bmp data does not start with BM") }
    headerSize = reader.u32(14)
    guard [12, 16, 40, 52, 56, 64, 108, 124].contains(headerSize) else {
      throw MagpieError(.unsupportedFormat, "a bmp DIB header of \(headerSize) bytes is not a version Magpie reads")
    }
    guard b.count >= 14 + headerSize else {
      throw MagpieError(.truncatedData, "bmp DIB header ends early (\(b.count) of \(14 + headerSize) bytes)")
    }
    let isCore = headerSize == 12
    let width = isCore ? reader.u16(18) : reader.i32(18)
    let height = isCore ? reader.u16(20) : reader.i32(22)
    bitCount = isCore ? reader.u16(24) : reader.u16(28)
    let code = headerSize >= 20 ? reader.u32(30) : 0
    let colorsUsed = headerSize >= 36 ? reader.u32(46) : 0
    guard width > 0, height != 0 else {
      throw MagpieError(.corruptData, "bmp declares an empty or negative size \(width)x\(height)")
    }
    guard [1, 2, 4, 8, 16, 24, 32].contains(bitCount) else {
      throw MagpieError(.corruptData, "bmp declares \(bitCount) bits per pixel")
    }
    size = PixelSize(width: width, height: abs(height))
    isTopDown = height < 0
    compression = try Self.compression(code, bitCount: bitCount, isOS2: headerSize == 16 || headerSize == 64)
    var tableStart = 14 + headerSize
    if compression == .bitfields {
      let count = code == 6 ? 4 : 3
      let inHeader = headerSize >= 52
      let at = inHeader ? 54 : tableStart
      guard b.count >= at + 4 * count else { throw MagpieError(.truncatedData, "bmp bitfield masks end early") }
      var masks = (0..<count).map { UInt32(reader.u32(at + 4 * $0)) }
      if count == 3 { masks.append(headerSize >= 56 ? UInt32(reader.u32(66)) : 0) }
      bitfields = try BMPBitfields(masks: masks, bitCount: bitCount)
      if !inHeader { tableStart += 4 * count }
    } else if bitCount == 16 || bitCount == 32 {
      bitfields = try BMPBitfields(masks: BMPBitfields.defaults(bitCount: bitCount), bitCount: bitCount)
    } else {
      bitfields = nil
    }
    let entries = bitCount > 8 ? 0 : colorsUsed == 0 ? 1 << bitCount : min(colorsUsed, 1 << bitCount)
    palette = entries > 0 ? Self.palette(reader, at: tableStart, entrySize: isCore ? 3 : 4, count: entries) : []
    // No offset (icon entries, which have no file header): right after the table.
    let declaredOffset = reader.u32(10)
    pixelOffset = declaredOffset == 0 ? tableStart + (isCore ? 3 : 4) * entries : declaredOffset
    iccRange =
      headerSize == 124 && reader.u32(70) == 0x4D42_4544 ? reader.range(14 + reader.u32(126), reader.u32(130)) : nil
  }

  private static func compression(_ code: Int, bitCount: Int, isOS2: Bool) throws(MagpieError) -> Compression {
    switch (code, bitCount) {
    case (0, _): return .none
    case (1, 8): return .rle8
    case (2, 4): return .rle4
    case (3, 16), (3, 32), (6, 16), (6, 32):
      if !isOS2 { return .bitfields }
    case (4, _), (5, _):
      if !isOS2 {
        throw MagpieError(.unsupportedFormat, "bmp holding an embedded \(code == 4 ? "JPEG" : "PNG") is not supported")
      }
    default: break
    }
    if isOS2 && (code == 3 || code == 4) {
      throw MagpieError(.unsupportedFormat, "OS/2 bmp compression \(code) (Huffman, RLE24) is not supported")
    }
    throw MagpieError(.corruptData, "bmp compression \(code) does not go with \(bitCount) bits per pixel")
  }

  /// The colour table of `count` entries (biClrUsed clamped to the depth's
  /// count) padded to 256 entries of opaque black: Chromium's colour for an
  /// index past the table. The fourth byte of each entry is ignored.
  private static func palette(_ reader: BMPBytes, at start: Int, entrySize: Int, count: Int) -> [UInt32] {
    let available = max(0, min(count, (reader.count - start) / entrySize))
    var table = [UInt32](repeating: 0xFF00_0000, count: 256)
    for i in 0..<available {
      let at = start + i * entrySize
      table[i] = UInt32(reader.u8(at + 2)) | UInt32(reader.u8(at + 1)) << 8 | UInt32(reader.u8(at)) << 16 | 0xFF00_0000
    }
    return table
  }
}
