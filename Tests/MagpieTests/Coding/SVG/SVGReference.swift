#if canImport(MagpieSVG)
  import Foundation
  import Testing

  @testable import Magpie

  /// Renders made by `rsvg-convert` (Debian's librsvg2-bin, which `make
  /// test` installs): the independent reference for the SVG coder.
  enum SVGReference {
    /// rsvg-convert's render of `svg` at its own size, or `width` x
    /// `height` when given, decoded as straight RGBA.
    static func render(_ svg: URL, width: Int? = nil, height: Int? = nil) throws -> PixelBuffer {
      let dir = try TemporaryDirectory()
      var arguments = [svg.path, "-o", dir.path("out.png")]
      if let width, let height { arguments += ["-w", String(width), "-h", String(height)] }
      try ReferenceTool.run("rsvg-convert", arguments)
      return try ReferenceTool.png(dir.path("out.png"))
    }

    /// The largest difference between the premultiplied values of two
    /// straight buffers: colour under low alpha is rounded differently by
    /// every unpremultiply, and is invisible.
    static func maxPremultipliedDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
      guard a.size == b.size else { return .max }
      let x = a.premultiplied().bytes
      let y = b.premultiplied().bytes
      return zip(x, y).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }
  }
#endif
