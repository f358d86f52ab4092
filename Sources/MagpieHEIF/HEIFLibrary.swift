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

  /// Whether Magpie's HEVC plugin (`heif_de265.c`: libde265 on worker
  /// threads) decodes in place of libheif's own, which Debian's 1.15
  /// starts with one thread. False where libde265 or its header is
  /// missing: libheif's plugin then decodes, on one core.
  static var decodesHEVCOnThreads: Bool { setUp.threaded }

  private static let setUp: (initialized: Bool, threaded: Bool) = {
    guard heif_init(nil).code == heif_error_Ok else { return (false, false) }
    return (true, mp_heif_register_de265_plugin() != 0)
  }()
}
