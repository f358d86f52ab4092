/// Finds the thumbnail a camera stores in a JPEG's EXIF block (IFD1's
/// `JPEGInterchangeFormat` and its length) in the bytes of a JPEG that
/// have arrived so far: what the `.thumbnail` preview policy shows while
/// the rest downloads. Every offset is bounds-checked; a lying block finds
/// nothing. Package-visible for the fuzz harness.
package enum EXIFThumbnailLocator {
  /// What the bytes so far say.
  package enum Outcome: Equatable {
    /// The thumbnail's bytes (a whole JPEG) and the main image's
    /// orientation, which the thumbnail shares.
    case found(Range<Int>, ImageOrientation)
    /// More bytes are needed to tell.
    case needsMoreData
    /// There is no thumbnail: not a JPEG, no EXIF before the image data,
    /// or an EXIF block without one.
    case absent
  }

  /// Looks through the segments before the first scan of `bytes`.
  package static func locate(in bytes: UnsafeRawBufferPointer) -> Outcome {
    guard bytes.count >= 2 else { return .needsMoreData }
    guard bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .absent }
    var position = 2
    while true {
      guard position + 4 <= bytes.count else { return .needsMoreData }
      guard bytes[position] == 0xFF else { return .absent }
      let marker = bytes[position + 1]
      if marker == 0xFF {
        position += 1  // fill byte
        continue
      }
      // The image data starts (or ends): no thumbnail came before it.
      if marker == 0xDA || marker == 0xD9 { return .absent }
      let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
      guard length >= 2 else { return .absent }
      let end = position + 2 + length
      if marker == 0xE1 {
        guard end <= bytes.count else { return .needsMoreData }
        let payload = position + 4
        if end - payload > 6, bytes[payload..<(payload + 6)].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) {
          let tiff = UnsafeRawBufferPointer(rebasing: bytes[(payload + 6)..<end])
          guard let range = thumbnail(inTIFF: tiff) else { return .absent }
          let orientation = EXIFOrientationReader.orientation(inEXIF: tiff)
          return .found((range.lowerBound + payload + 6)..<(range.upperBound + payload + 6), orientation)
        }
      }
      position = end
    }
  }

  /// IFD1's thumbnail range within TIFF bytes, when it is a whole JPEG
  /// inside them.
  private static func thumbnail(inTIFF bytes: UnsafeRawBufferPointer) -> Range<Int>? {
    guard let tiff = TIFFBytes(bytes), let ifd0 = tiff.firstIFD, let count0 = tiff.u16(ifd0),
      let ifd1 = tiff.u32(ifd0 + 2 + count0 * 12), ifd1 > 0, let count1 = tiff.u16(ifd1)
    else { return nil }
    var offset: Int?
    var length: Int?
    for index in 0..<count1 {
      let entry = ifd1 + 2 + index * 12
      guard let tag = tiff.u16(entry) else { return nil }
      if tag == 0x0201 { offset = tiff.u32(entry + 8) }
      if tag == 0x0202 { length = tiff.u32(entry + 8) }
    }
    guard let offset, let length, length > 4, offset + length <= bytes.count,
      bytes[offset] == 0xFF, bytes[offset + 1] == 0xD8
    else { return nil }
    return offset..<(offset + length)
  }
}
