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
  static func orientationEntry(inTIFF bytes: UnsafeRawBufferPointer) -> Entry? {
    guard let tiff = TIFFBytes(bytes), let ifd0 = tiff.firstIFD, let entries = tiff.u16(ifd0) else { return nil }
    for index in 0..<entries {
      let entry = ifd0 + 2 + index * 12
      guard let tag = tiff.u16(entry) else { return nil }
      // Type SHORT (3), count 1: the value sits in the entry itself.
      if tag == 0x0112, tiff.u16(entry + 2) == 3, let value = tiff.u16(entry + 8) {
        return Entry(valueOffset: entry + 8, littleEndian: tiff.littleEndian, value: value)
      }
    }
    return nil
  }
}
