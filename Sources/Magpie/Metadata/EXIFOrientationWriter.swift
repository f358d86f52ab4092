import Foundation

/// Rewrites the orientation tag (0x0112) of an EXIF block.
enum EXIFOrientationWriter {
  /// `tiff` (TIFF-structured EXIF) with its orientation set to 1 (upright),
  /// or unchanged when it has no orientation tag or does not parse (every
  /// offset is bounds-checked).
  static func settingUpright(_ tiff: Data) -> Data {
    var bytes = [UInt8](tiff)
    guard bytes.count >= 8 else { return tiff }
    let littleEndian: Bool
    switch (bytes[0], bytes[1]) {
    case (0x49, 0x49): littleEndian = true
    case (0x4D, 0x4D): littleEndian = false
    default: return tiff
    }
    func u16(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= bytes.count else { return nil }
      return littleEndian ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }
    func u32(_ at: Int) -> Int? {
      guard let a = u16(at), let b = u16(at + 2) else { return nil }
      return littleEndian ? a | b << 16 : a << 16 | b
    }
    guard u16(2) == 42, let ifd0 = u32(4), let entries = u16(ifd0) else { return tiff }
    for index in 0..<entries {
      let entry = ifd0 + 2 + index * 12
      guard let tag = u16(entry) else { return tiff }
      // Type SHORT (3), count 1: the value sits in the entry's first two bytes.
      if tag == 0x0112, u16(entry + 2) == 3, u16(entry + 8) != nil {
        bytes[entry + 8] = littleEndian ? 1 : 0
        bytes[entry + 9] = littleEndian ? 0 : 1
        return Data(bytes)
      }
    }
    return tiff
  }
}
