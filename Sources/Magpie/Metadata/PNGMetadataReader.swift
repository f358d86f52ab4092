import Foundation

/// Finds a PNG's `eXIf` chunk and its XMP (an uncompressed `iTXt` chunk
/// with the keyword `XML:com.adobe.xmp`), walking the chunks up to the
/// image data.
enum PNGMetadataReader {
  /// `XML:com.adobe.xmp`, the keyword of an `iTXt` chunk holding XMP.
  static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)
  /// `iTXt`: international text.
  static let itxt = PNGChunk.code("iTXt")

  static func read(_ data: Data) -> ImageMetadata {
    var metadata = ImageMetadata()
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      var at = 8
      while at + 12 <= bytes.count {
        let length = Int(PNGChunk.bigEndian32(bytes, at: at))
        let type = PNGChunk.bigEndian32(bytes, at: at + 4)
        guard length <= bytes.count - at - 12 else { return }
        let body = UnsafeRawBufferPointer(rebasing: bytes[(at + 8)..<(at + 8 + length)])
        switch type {
        case PNGChunk.exif where metadata.exif == nil:
          metadata.exif = ImageMetadata.tiff(Data(body))
        case itxt where metadata.xmp == nil:
          metadata.xmp = xmp(inITXt: body)
        case PNGChunk.idat, PNGChunk.iend:
          return
        default:
          break
        }
        at += 12 + length
      }
    }
    return metadata
  }

  /// The text of an uncompressed XMP `iTXt` chunk: keyword, NUL,
  /// compression flag 0, method, language tag, NUL, translated keyword,
  /// NUL, text.
  private static func xmp(inITXt body: UnsafeRawBufferPointer) -> Data? {
    guard body.count > xmpKeyword.count + 3, body.starts(with: xmpKeyword), body[xmpKeyword.count] == 0,
      body[xmpKeyword.count + 1] == 0
    else { return nil }
    var at = xmpKeyword.count + 3
    for _ in 0..<2 {
      guard let end = body[at...].firstIndex(of: 0) else { return nil }
      at = end + 1
    }
    return Data(body[at...])
  }
}
