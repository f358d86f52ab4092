import Magpie

#if canImport(MagpieAVIF)
  import MagpieAVIF
#endif
#if canImport(MagpieHEIF)
  import MagpieHEIF
#endif
#if canImport(MagpieJXL)
  import MagpieJXL
#endif
#if canImport(MagpieSVG)
  import MagpieSVG
#endif
#if canImport(MagpiePDF)
  import MagpiePDF
#endif
#if canImport(MagpieTIFF)
  import MagpieTIFF
#endif
#if canImport(MagpieVideo)
  import MagpieVideo
#endif

/// Registers the optional coders this build has (AVIF, HEIC, JPEG XL, TIFF, SVG, PDF, video: see
/// Package.swift) with the shared registry, before any command runs.
enum OptionalCoders {
  /// Registers every optional coder built; each line is compiled only when
  /// its module is.
  static func register() {
    #if canImport(MagpieAVIF)
      CoderRegistry.shared.register(AVIFCoder())
    #endif
    #if canImport(MagpieHEIF)
      CoderRegistry.shared.register(HEIFCoder())
    #endif
    #if canImport(MagpieJXL)
      CoderRegistry.shared.register(JXLCoder())
    #endif
    #if canImport(MagpieSVG)
      CoderRegistry.shared.register(SVGCoder())
    #endif
    #if canImport(MagpiePDF)
      CoderRegistry.shared.register(PDFCoder())
    #endif
    #if canImport(MagpieTIFF)
      CoderRegistry.shared.register(TIFFCoder())
    #endif
    #if canImport(MagpieVideo)
      CoderRegistry.shared.register(VideoCoder())
    #endif
  }
}
