/// What a preview is decoded from.
enum PreviewSource: Equatable, Sendable {
  /// The bytes of a progressive JPEG so far, through its last complete scan.
  case scans
  /// The thumbnail stored in the JPEG's EXIF block (these bytes of it),
  /// to be turned as the main image's orientation says.
  case embeddedThumbnail(Range<Int>, ImageOrientation)
}
