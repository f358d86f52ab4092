#if canImport(MagpieAVIF)
  import Foundation
  import MagpieAVIF

  extension FuzzHarness {
    /// The AVIF coder through libavif (ISO-BMFF boxes, clap/irot/imir,
    /// alpha and sequences) and its frame source.
    static let avif = FuzzHarness(name: "avif", seedExtensions: ["avif", "avifs"], maxLength: 64 << 10) { data in
      FuzzDecoding.exercise(AVIFCoder(), data)
    }
  }
#endif
