import Foundation

/// Finds the EXIF and XMP APP1 segments of a JPEG, walking its markers up
/// to the first scan.
enum JPEGMetadataReader {
  static func read(_ data: Data) -> ImageMetadata {
    var metadata = ImageMetadata()
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return }
      var at = 2
      while at + 4 <= bytes.count, bytes[at] == 0xFF {
        let marker = bytes[at + 1]
        // Fill bytes before a marker.
        if marker == 0xFF {
          at += 1
          continue
        }
        // Start of scan or end of image: no metadata segment comes after.
        if marker == 0xDA || marker == 0xD9 { return }
        let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        guard length >= 2, at + 2 + length <= bytes.count else { return }
        let body = UnsafeRawBufferPointer(rebasing: bytes[(at + 4)..<(at + 2 + length)])
        if marker == 0xE1 {
          if metadata.exif == nil, body.starts(with: ImageMetadata.exifPrefix) {
            metadata.exif = Data(body.dropFirst(ImageMetadata.exifPrefix.count))
          } else if metadata.xmp == nil, body.starts(with: ImageMetadata.xmpNamespace) {
            metadata.xmp = Data(body.dropFirst(ImageMetadata.xmpNamespace.count))
          }
        }
        at += 2 + length
      }
    }
    return metadata
  }
}
