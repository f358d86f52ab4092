#if canImport(MagpieServer)
  import MagpieServer

  /// Shorthands for the transform-URL tests: parse a path with signing
  /// off, or options alone in front of a fixed source.
  enum ServerURLs {
    /// The source the option tests put after their options.
    static let source = "http://example.com/a.jpg"

    /// `path` parsed by a parser with `presets` and signing off.
    static func parse(_ path: String, presets: [String: String] = [:]) throws(TransformURLError) -> TransformRequest {
      try TransformURLParser(presets: presets).parse(path)
    }

    /// The options `optionPath` (e.g. `rs:fill:10:20/q:80`) parse into.
    static func options(_ optionPath: String, presets: [String: String] = [:]) throws(TransformURLError)
      -> TransformOptions
    {
      try parse("/unsafe/\(optionPath)/plain/\(source)", presets: presets).options
    }

    /// The error parsing `path` throws, `nil` when it parses.
    static func refusal(_ path: String, presets: [String: String] = [:]) -> TransformURLError? {
      do {
        _ = try parse(path, presets: presets)
        return nil
      } catch {
        return error
      }
    }

    /// The error parsing `optionPath` in front of ``source`` throws.
    static func optionRefusal(_ optionPath: String) -> TransformURLError? {
      refusal("/unsafe/\(optionPath)/plain/\(source)")
    }
  }
#endif
