import CGIF
import CMagpieCodecs
import CWebP

/// Versions of Magpie and of the codec libraries it runs with, for logs and
/// benchmark records.
public enum LibraryVersions {
  /// Magpie's own version.
  public static let magpie = "0.1.0"

  /// libjpeg-turbo, as built against.
  public static var libjpegTurbo: String { String(cString: mp_libjpeg_turbo_version()) }

  /// libpng, as loaded at run time.
  public static var libpng: String { String(cString: mp_libpng_version()) }

  /// giflib, as built against.
  public static var giflib: String { "\(GIFLIB_MAJOR).\(GIFLIB_MINOR).\(GIFLIB_RELEASE)" }

  /// libwebp's decoder, as loaded at run time.
  public static var libwebp: String {
    let v = WebPGetDecoderVersion()
    return "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)"
  }

  /// Every version above, by library name.
  public static var all: [(name: String, version: String)] {
    [("magpie", magpie), ("libjpeg-turbo", libjpegTurbo), ("libpng", libpng), ("giflib", giflib), ("libwebp", libwebp)]
  }
}
