import Foundation

/// Reading ISO base media file format boxes straight from a HEIF file's
/// bytes, for the checks made before libheif sees the file
/// (``HEIFItemReferences``, ``HEIFDerivedImageSizes``). Every read is
/// bounds-checked; what cannot be read comes back `nil`.
enum HEIFBoxes {
  /// The payload range of the first box of `type` among the boxes between
  /// `start` and `end`.
  static func child(_ type: String, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int)
    -> Range<Int>?
  {
    var offset = start
    while let header = header(in: bytes, at: offset, end: end) {
      let size = header.size == 0 ? end - offset : header.size
      guard size >= header.length, size <= end - offset else { return nil }
      if header.type == type { return (offset + header.length)..<(offset + size) }
      offset += size
    }
    return nil
  }

  /// A box header at `offset`: its declared size (0: to the end), type and
  /// own length (8, 16 with a 64-bit size, plus 16 for a `uuid`).
  static func header(in bytes: UnsafeRawBufferPointer, at offset: Int, end: Int)
    -> (size: Int, type: String, length: Int)?
  {
    guard let size32 = uint(bytes, at: offset, size: 4, end: end), offset + 8 <= end else { return nil }
    let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: Unicode.ASCII.self)
    var size = Int(size32)
    var length = 8
    if size32 == 1 {
      guard let size64 = uint(bytes, at: offset + 8, size: 8, end: end), size64 <= UInt64(Int.max) else { return nil }
      size = Int(size64)
      length = 16
    }
    if type == "uuid" { length += 16 }
    return (size, type, length)
  }

  /// The big-endian unsigned integer of `size` bytes at `offset`, or `nil`
  /// past `end`.
  static func uint(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int, end: Int) -> UInt64? {
    guard offset >= 0, size <= end - offset else { return nil }
    return bytes[offset..<(offset + size)].reduce(0) { $0 << 8 | UInt64($1) }
  }
}
