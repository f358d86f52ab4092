/// Little-endian reads at fixed offsets of a BMP or ICO file; callers check
/// the length first.
struct BMPBytes {
  /// The file's bytes.
  let bytes: UnsafeRawBufferPointer

  /// Wraps `bytes`.
  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  /// The file's length.
  var count: Int { bytes.count }

  /// The byte at `offset`.
  func u8(_ offset: Int) -> Int { Int(bytes[offset]) }

  /// The unsigned 16-bit value at `offset`.
  func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }

  /// The unsigned 32-bit value at `offset`.
  func u32(_ offset: Int) -> Int { u16(offset) | u16(offset + 2) << 16 }

  /// The signed 32-bit value at `offset`.
  func i32(_ offset: Int) -> Int { Int(Int32(truncatingIfNeeded: u32(offset))) }

  /// `start ..< start + length` when it lies inside the file and is not
  /// empty, else `nil`.
  func range(_ start: Int, _ length: Int) -> Range<Int>? {
    guard length > 0, start >= 0, start <= count, length <= count - start else { return nil }
    return start..<(start + length)
  }
}
