/// One image of an icon or cursor file: where its bytes are and what its
/// own header says it is.
struct ICOEntry: Equatable {
  /// Its bytes in the file (clamped to the file's end).
  var range: Range<Int>
  /// Whether the bytes are a PNG (else a headerless BMP with an AND mask).
  var isPNG: Bool
  /// Its size: the PNG's or BMP's own header where it reads, else the
  /// directory's (0 meaning 256).
  var size: PixelSize
  /// Bits per pixel from its own header; 0 when it does not read.
  var bitsPerPixel: Int
  /// A cursor entry's hotspot (the directory's planes and bit-count fields).
  var hotspot: CursorHotspot?

  /// What ``MultiImageCoder/subimages(in:)`` reports for it.
  var info: SubimageInfo { SubimageInfo(size: size, bitsPerPixel: bitsPerPixel, hotspot: hotspot) }

  /// Whether this entry beats `other` as a picture: more pixels, then more
  /// bits per pixel.
  func isLarger(than other: ICOEntry) -> Bool {
    size.pixelCount != other.size.pixelCount
      ? size.pixelCount > other.size.pixelCount : bitsPerPixel > other.bitsPerPixel
  }
}
