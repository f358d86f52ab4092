#if canImport(MagpieTIFF)
  import Foundation
  import MagpieTIFF

  extension FuzzHarness {
    /// The TIFF coder through libtiff (directories, strips and tiles,
    /// every photometric and codec libtiff reads, reduced copies, ICC).
    static let tiff = FuzzHarness(name: "tiff", seedExtensions: ["tif", "tiff"], maxLength: 64 << 10) { data in
      FuzzDecoding.exercise(TIFFCoder(), data)
    }
  }
#endif
