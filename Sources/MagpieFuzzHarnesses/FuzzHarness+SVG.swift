#if canImport(MagpieSVG)
  import Foundation
  import Magpie
  import MagpieSVG

  extension FuzzHarness {
    /// The SVG coder: librsvg's parser and renderer behind Magpie's size
    /// rules and limits (the fuzz pixel limit keeps renders small).
    static let svg = FuzzHarness(name: "svg", seedExtensions: ["svg"], maxLength: 16 << 10) { data in
      FuzzDecoding.exercise(SVGCoder(), data)
    }
  }
#endif
