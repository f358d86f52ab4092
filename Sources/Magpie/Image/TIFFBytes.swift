/// Bounds-checked reads from TIFF-structured bytes (an EXIF block without
/// its `Exif\0\0` prefix), in the byte order its header names: what the
/// EXIF readers walk IFDs with. A read past the end gives `nil`.
struct TIFFBytes {
  /// The bytes.
  let bytes: UnsafeRawBufferPointer
  /// Whether the header says `II` (little-endian) rather than `MM`.
  let littleEndian: Bool

  /// The reader of `bytes`, when they start with a TIFF header (byte
  /// order and the magic 42).
  init?(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 8 else { return nil }
    switch (bytes[0], bytes[1]) {
    case (0x49, 0x49): littleEndian = true
    case (0x4D, 0x4D): littleEndian = false
    default: return nil
    }
    self.bytes = bytes
    guard u16(2) == 42 else { return nil }
  }

  /// The 16-bit value at `offset`.
  func u16(_ offset: Int) -> Int? {
    guard offset >= 0, offset + 2 <= bytes.count else { return nil }
    let (a, b) = (Int(bytes[offset]), Int(bytes[offset + 1]))
    return littleEndian ? a | b << 8 : a << 8 | b
  }

  /// The 32-bit value at `offset`.
  func u32(_ offset: Int) -> Int? {
    guard let a = u16(offset), let b = u16(offset + 2) else { return nil }
    return littleEndian ? a | b << 16 : a << 16 | b
  }

  /// The offset of IFD0.
  var firstIFD: Int? { u32(4) }
}
