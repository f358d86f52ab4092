#if canImport(MagpiePDF)
  import Foundation
  import Magpie
  import MagpiePDF

  extension FuzzHarness {
    /// The PDF coder: poppler's parser and the page drawing behind
    /// Magpie's size rules and limits (the fuzz pixel limit keeps pages small).
    static let pdf = FuzzHarness(name: "pdf", seedExtensions: ["pdf"], maxLength: 16 << 10) { data in
      let coder = PDFCoder()
      FuzzDecoding.exercise(coder, data)
      _ = try? coder.subimages(in: data)
    }
  }
#endif
