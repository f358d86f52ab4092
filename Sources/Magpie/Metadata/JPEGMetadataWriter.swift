import Foundation

/// Writes ICC, EXIF and XMP segments into an encoded JPEG, after its SOI
/// and JFIF APP0 (which must stay first).
enum JPEGMetadataWriter {
  /// The most data one marker segment holds (its length field counts itself).
  static let segmentCapacity = 65533
  /// `ICC_PROFILE\0`, then a sequence number and a count: ICC.1 Annex B.4.
  static let iccPrefix = Array("ICC_PROFILE".utf8) + [0]
  /// The most profile bytes one APP2 segment holds.
  static let iccChunkCapacity = segmentCapacity - iccPrefix.count - 2

  /// `jpeg` with `icc` (split over as many APP2 segments as it needs),
  /// `exif` (TIFF bytes) and `xmp` written in; a block too large for a
  /// JPEG is an ``MagpieError/Code/encodingFailed`` error naming its size.
  static func embed(in jpeg: Data, icc: Data?, exif: Data?, xmp: Data?) throws(MagpieError) -> Data {
    let bytes = [UInt8](jpeg)
    guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
      throw MagpieError(.encodingFailed, "the encoded JPEG does not start with SOI")
    }
    var segments: [UInt8] = []
    if let exif {
      try append(0xE1, ImageMetadata.exifPrefix + exif, named: "EXIF block", to: &segments)
    }
    if let xmp {
      try append(0xE1, ImageMetadata.xmpNamespace + xmp, named: "XMP packet", to: &segments)
    }
    if let icc {
      let chunks = stride(from: 0, to: icc.count, by: iccChunkCapacity).map {
        icc[(icc.startIndex + $0)..<(icc.startIndex + min(icc.count, $0 + iccChunkCapacity))]
      }
      guard chunks.count <= 255 else {
        throw MagpieError(.encodingFailed, "an ICC profile of \(icc.count) bytes does not fit in 255 JPEG segments")
      }
      for (index, chunk) in chunks.enumerated() {
        let body = iccPrefix + [UInt8(index + 1), UInt8(chunks.count)] + chunk
        try append(0xE2, body, named: "ICC chunk", to: &segments)
      }
    }
    var at = 2
    // Keep a JFIF APP0 first, as readers expect.
    if bytes.count >= 11, bytes[2] == 0xFF, bytes[3] == 0xE0, Array(bytes[6..<11]) == Array("JFIF".utf8) + [0] {
      at = 4 + (Int(bytes[4]) << 8 | Int(bytes[5]))
    }
    guard at <= bytes.count else { throw MagpieError(.encodingFailed, "the encoded JPEG's APP0 overruns it") }
    return Data(bytes[..<at] + segments + bytes[at...])
  }

  private static func append(
    _ marker: UInt8, _ body: [UInt8], named name: String, to output: inout [UInt8]
  ) throws(MagpieError) {
    guard body.count <= segmentCapacity else {
      throw MagpieError(
        .encodingFailed, "a \(name) of \(body.count) bytes does not fit in a JPEG segment (at most \(segmentCapacity))")
    }
    let length = body.count + 2
    output += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + body
  }
}
