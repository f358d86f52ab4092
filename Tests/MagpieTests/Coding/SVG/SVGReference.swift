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
      let output = dir.path("out.png")
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/rsvg-convert")
      var arguments = [svg.path, "-o", output]
      if let width, let height { arguments += ["-w", String(width), "-h", String(height)] }
      process.arguments = arguments
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "rsvg-convert (librsvg2-bin) failed on \(svg.lastPathComponent)")
      var options = DecodeOptions()
      options.colorManagement = .preserve
      return try PNGCoder().decode(Data(contentsOf: URL(fileURLWithPath: output)), options: options).pixels
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
