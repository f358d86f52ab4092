/// Reads the orientation tag (0x0112) from an EXIF block.
///
/// Shared by the JPEG (APP1), PNG (`eXIf`) and WebP (`EXIF` chunk) coders.
/// Every offset is bounds-checked: a lying EXIF block yields `.up`, never a
/// crash.
public enum EXIFOrientationReader {
  /// Where an orientation tag's value sits in a TIFF block.
  struct Entry {
    /// Offset of the value's two bytes within the TIFF bytes.
    var valueOffset: Int
    /// The block's byte order.
    var littleEndian: Bool
    /// The stored value.
    var value: Int
  }

  /// The orientation in a TIFF-structured EXIF block, with or without the
  /// `Exif\0\0` prefix JPEG's APP1 segment carries; `.up` when absent or
  /// unreadable.
  public static func orientation(inEXIF block: UnsafeRawBufferPointer) -> ImageOrientation {
    var tiff = block
    let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
    if tiff.count >= 6 && tiff.prefix(6).elementsEqual(exifHeader) {
      tiff = UnsafeRawBufferPointer(rebasing: tiff[6...])
    }
    return orientationEntry(inTIFF: tiff).flatMap { ImageOrientation(rawValue: $0.value) } ?? .up
  }

  /// The orientation entry of TIFF bytes (no `Exif\0\0` prefix), or `nil`.
  static func orientationEntry(inTIFF tiff: UnsafeRawBufferPointer) -> Entry? {
    guard tiff.count >= 8 else { return nil }
    let littleEndian: Bool
    switch (tiff[0], tiff[1]) {
    case (0x49, 0x49): littleEndian = true
    case (0x4D, 0x4D): littleEndian = false
    default: return nil
    }
    func u16(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= tiff.count else { return nil }
      return littleEndian ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
    }
    func u32(_ at: Int) -> Int? {
      guard let a = u16(at), let b = u16(at + 2) else { return nil }
      return littleEndian ? a | b << 16 : a << 16 | b
    }
    guard u16(2) == 42, let ifd0 = u32(4), let entries = u16(ifd0) else { return nil }
    for index in 0..<entries {
      let entry = ifd0 + 2 + index * 12
      guard let tag = u16(entry) else { return nil }
      // Type SHORT (3), count 1: the value sits in the entry itself.
      if tag == 0x0112, u16(entry + 2) == 3, let value = u16(entry + 8) {
        return Entry(valueOffset: entry + 8, littleEndian: littleEndian, value: value)
      }
    }
    return nil
  }
}
