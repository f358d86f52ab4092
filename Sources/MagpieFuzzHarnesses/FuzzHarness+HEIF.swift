#if canImport(MagpieHEIF)
  import Foundation
  import MagpieHEIF

  extension FuzzHarness {
    /// The HEIC coder through libheif and libde265 (boxes, thumbnails,
    /// alpha, EXIF orientation, ICC).
    static let heif = FuzzHarness(name: "heif", seedExtensions: ["heic", "heif"], maxLength: 64 << 10) { data in
      FuzzDecoding.exercise(HEIFCoder(), data)
    }
  }
#endif
