import Foundation

/// Finds the `EXIF` and `XMP ` chunks of an extended (VP8X) WebP, walking
/// its RIFF chunks.
enum WebPMetadataReader {
  static func read(_ data: Data) -> ImageMetadata {
    var metadata = ImageMetadata()
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      var at = 12
      while at + 8 <= bytes.count {
        let tag = String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
        let length = (0..<4).reduce(0) { $0 | Int(bytes[at + 4 + $1]) << (8 * $1) }
        guard length <= bytes.count - at - 8 else { return }
        let body = Data(bytes[(at + 8)..<(at + 8 + length)])
        switch tag {
        case "EXIF" where metadata.exif == nil: metadata.exif = ImageMetadata.tiff(body)
        case "XMP " where metadata.xmp == nil: metadata.xmp = body
        default: break
        }
        // Chunks are padded to an even length.
        at += 8 + length + (length & 1)
      }
    }
    return metadata
  }
}
