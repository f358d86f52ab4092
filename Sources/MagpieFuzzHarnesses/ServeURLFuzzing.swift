#if canImport(MagpieServer)
  import MagpieServer

  /// The parsers the `serve-url` and `serve-signature` harnesses share.
  enum ServeURLFuzzing {
    /// Signing off, with a `default` preset and presets that nest.
    static let parser = try! TransformURLParser(presets: [
      "default": "sm:0/q:85", "thumb": "rs:fill:200:200/g:sm", "webp": "f:webp/q:70",
      "nested": "pr:thumb/pr:webp/bl:1", "none": "",
    ])
    /// Signing off, no presets: what canonical paths are read back with.
    static let withoutPresets = try! TransformURLParser()
  }
#endif
