/// Why the gallery cannot start.
enum GalleryError: Error {
  /// A bad command line.
  case usage(String)
}
