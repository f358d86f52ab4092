import Foundation

/// Rewrites the orientation tag (0x0112) of an EXIF block.
enum EXIFOrientationWriter {
  /// `tiff` (TIFF-structured EXIF) with its orientation set to 1 (upright),
  /// or unchanged when it has no orientation tag or does not parse (every
  /// offset is bounds-checked).
  static func settingUpright(_ tiff: Data) -> Data {
    var bytes = [UInt8](tiff)
    guard let entry = bytes.withUnsafeBytes({ EXIFOrientationReader.orientationEntry(inTIFF: $0) }) else { return tiff }
    bytes[entry.valueOffset] = entry.littleEndian ? 1 : 0
    bytes[entry.valueOffset + 1] = entry.littleEndian ? 0 : 1
    return Data(bytes)
  }
}
