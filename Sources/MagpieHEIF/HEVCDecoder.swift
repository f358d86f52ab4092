import CHEIFLoader

/// Which HEVC decoder turns a HEIC file's pictures into pixels (libheif
/// parses the file either way, and the pixels are the same: HEVC decoding
/// is exact).
///
/// Debian 12's libheif 1.15 decodes with libde265 on one thread. Magpie
/// adds two decoders above it, each opened the first time a decode asks.
public enum HEVCDecoder: Sendable, Hashable, CaseIterable {
  /// The fastest one here: ``libavcodec``, else ``libde265``, else
  /// ``libheif``.
  case fastest
  /// FFmpeg's decoder (SIMD throughout), a picture's wavefront rows on
  /// slice threads: about 1.3x libde265's speed on one core. Opening
  /// FFmpeg and what Debian's build links costs a process about 15 ms and
  /// 14 MB of RSS once. Where it cannot be opened, ``libheif`` decodes.
  case libavcodec
  /// libde265 with worker threads over the rows and loop filters; loaded
  /// with libheif anyway, so it costs nothing to open.
  case libde265
  /// libheif's own plugin: libde265 on one thread.
  case libheif

  /// Whether it can decode here: its plugin was built (the library's
  /// header was installed) and its library opens. Opens it if need be.
  public var isAvailable: Bool { mp_heif_hevc_available(backend) != 0 }

  /// The C plugins' name for it.
  var backend: mp_heif_hevc_backend {
    switch self {
    case .fastest: mp_heif_hevc_any
    case .libavcodec: mp_heif_hevc_avcodec
    case .libde265: mp_heif_hevc_de265
    case .libheif: mp_heif_hevc_libheif
    }
  }
}
