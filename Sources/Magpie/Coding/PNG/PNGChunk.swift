/// One chunk of a PNG stream, located in the bytes it was read from.
struct PNGChunk: Sendable, Equatable {
  /// The four type letters as a big-endian number, e.g. ``PNGChunk/idat``.
  var type: UInt32
  /// Offset of the chunk's length field in the stream.
  var offset: Int
  /// Length of the chunk's data in bytes.
  var length: Int

  /// Where the chunk's data lies in the stream.
  var dataRange: Range<Int> { (offset + 8)..<(offset + 8 + length) }
  /// Where the whole chunk (length, type, data, CRC) lies in the stream.
  var range: Range<Int> { offset..<(offset + 12 + length) }

  /// The type letters, e.g. `"IDAT"`, for error messages.
  var name: String { Self.name(of: type) }

  /// The chunk's data within `bytes`, the stream it was read from.
  func data(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: bytes[dataRange])
  }

  /// Whether the stored CRC matches the chunk's type and data.
  func hasValidCRC(in bytes: UnsafeRawBufferPointer) -> Bool {
    let covered = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 8 + length)])
    return CRC32.checksum(covered) == Self.bigEndian32(bytes, at: offset + 8 + length)
  }

  /// `IHDR`: image header.
  static let ihdr = code("IHDR")
  /// `PLTE`: palette.
  static let plte = code("PLTE")
  /// `tRNS`: transparency for colour types without alpha.
  static let trns = code("tRNS")
  /// `IDAT`: image data.
  static let idat = code("IDAT")
  /// `IEND`: end of the stream.
  static let iend = code("IEND")
  /// `eXIf`: an EXIF block.
  static let exif = code("eXIf")
  /// `acTL`: APNG animation control.
  static let actl = code("acTL")
  /// `fcTL`: APNG frame control.
  static let fctl = code("fcTL")
  /// `fdAT`: APNG frame data.
  static let fdat = code("fdAT")

  /// The big-endian number of a four-letter type.
  static func code(_ letters: StaticString) -> UInt32 {
    precondition(letters.utf8CodeUnitCount == 4, "chunk types have four letters")
    let p = letters.utf8Start
    return UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
  }

  /// The four letters of a type code; bytes that are not letters print as `?`.
  static func name(of type: UInt32) -> String {
    let letters = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: type >> $0) }
    let isLetter = letters.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    return isLetter ? String(decoding: letters, as: UTF8.self) : "????"
  }

  /// The big-endian 32-bit number at `offset`; the caller checks bounds.
  static func bigEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  /// The big-endian 16-bit number at `offset`; the caller checks bounds.
  static func bigEndian16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt16 {
    UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
  }
}
