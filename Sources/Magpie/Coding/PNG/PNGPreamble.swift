/// What the chunks before a PNG's first IDAT say that libpng is not asked
/// about: whether the file is an APNG and its EXIF orientation.
///
/// Best effort by design: a damaged or truncated preamble just ends the
/// walk; libpng then reports the real problem when it reads the same chunks.
struct PNGPreamble: Sendable, Equatable {
  /// An `acTL` chunk comes before the first IDAT: the file is an APNG.
  var isAnimated = false
  /// The orientation in an `eXIf` chunk before the first IDAT (browsers
  /// ignore one that comes later), `.up` when there is none.
  var orientation = ImageOrientation.up
  /// IEND comes before any IDAT: the file holds no image.
  var endsBeforeImageData = false
  /// The colour profile iCCP, or cHRM with gAMA, give (``PNGColorChunks``);
  /// `nil` for sRGB or untagged.
  var colorProfile: ColorProfile?

  /// Walks the chunks of `bytes` up to the first IDAT.
  init(scanning bytes: UnsafeRawBufferPointer) {
    guard var reader = PNGChunkReader(bytes) else { return }
    var sawEXIF = false
    var color = PNGColorChunks()
    while let chunk = try? reader.next() {
      switch chunk.type {
      case PNGChunk.idat:
        colorProfile = color.profile
        return
      case PNGChunk.iend:
        endsBeforeImageData = true
        return
      case PNGChunk.actl:
        isAnimated = true
      case PNGChunk.exif where !sawEXIF && chunk.hasValidCRC(in: bytes):
        // PNG allows one eXIf; like libpng, the first counts.
        sawEXIF = true
        orientation = EXIFOrientationReader.orientation(inEXIF: chunk.data(in: bytes))
      default:
        color.read(chunk, in: bytes)
      }
    }
  }
}
