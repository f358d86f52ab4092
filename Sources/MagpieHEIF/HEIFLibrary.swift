import CHEIF
import CHEIFLoader

/// libheif's one-time set-up. Without `heif_init` libheif registers its
/// decoder plugins lazily on first use, unguarded, which concurrent first
/// decodes race on; a Swift global is initialised exactly once, on the
/// first thread that needs it, before any context is made.
enum HEIFLibrary {
  /// Whether `heif_init` succeeded (it is reference counted and never
  /// undone: the plugins stay registered for the life of the process).
  static var isInitialized: Bool { setUp.initialized }

  /// Whether Magpie's HEVC plugins (``HEVCDecoder``) were registered
  /// with libheif, above its own; their libraries open on first use.
  static var registeredHEVCPlugins: Bool { setUp.plugins }

  private static let setUp: (initialized: Bool, plugins: Bool) = {
    guard heif_init(nil).code == heif_error_Ok else { return (false, false) }
    let avcodec = mp_heif_register_avcodec_plugin() != 0
    let de265 = mp_heif_register_de265_plugin() != 0
    return (true, avcodec && de265)
  }()
}
