import CHEIF

/// libheif's one-time set-up. Without `heif_init` libheif registers its
/// decoder plugins lazily on first use, unguarded, which concurrent first
/// decodes race on; a Swift global is initialised exactly once, on the
/// first thread that needs it, before any context is made.
enum HEIFLibrary {
  /// Whether `heif_init` succeeded (it is reference counted and never
  /// undone: the plugins stay registered for the life of the process).
  static let isInitialized: Bool = heif_init(nil).code == heif_error_Ok
}
