#if canImport(MagpieJXL)
  import Foundation
  import MagpieJXL

  extension FuzzHarness {
    /// The JPEG XL coder through libjxl (bare codestream and container,
    /// animation) and its frame source.
    static let jxl = FuzzHarness(name: "jxl", seedExtensions: ["jxl"], maxLength: 64 << 10) { data in
      FuzzDecoding.exercise(JXLCoder(), data)
    }
  }
#endif
