/// Every fuzz harness, by name: what `make fuzz` runs (the `magpie-fuzz`
/// driver lists them) and what the regression tests replay. A new harness
/// is a `FuzzHarness+Name.swift` file and one line here.
public enum FuzzHarnesses {
  /// Every harness this build has (the optional coders' only where they are
  /// built), in the order `make fuzz` runs them.
  public static var all: [FuzzHarness] {
    var harnesses: [FuzzHarness] = [
      .sniffing, .jpeg, .jpegProgressive, .png, .gif, .webp, .bmp, .ico, .icc, .metadata, .processSpec, .httpHead,
      .cacheEntry,
    ]
    #if canImport(MagpieAVIF)
      harnesses.append(.avif)
    #endif
    #if canImport(MagpieHEIF)
      harnesses.append(.heif)
    #endif
    #if canImport(MagpieJXL)
      harnesses.append(.jxl)
    #endif
    #if canImport(MagpieSVG)
      harnesses.append(.svg)
    #endif
    #if canImport(MagpiePDF)
      harnesses.append(.pdf)
    #endif
    #if canImport(MagpieTIFF)
      harnesses.append(.tiff)
    #endif
    #if canImport(MagpieVideo)
      harnesses.append(.video)
    #endif
    #if canImport(MagpieServer)
      harnesses += [.serveURL, .serveSignature]
    #endif
    return harnesses
  }

  /// The harness called `name`, if there is one.
  public static func named(_ name: String) -> FuzzHarness? {
    all.first { $0.name == name }
  }
}
