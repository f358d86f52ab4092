#if canImport(MagpiePDF)
  import Foundation
  import Testing

  @testable import Magpie

  /// Drawings of PDF pages by poppler-utils' own tools (Debian's
  /// poppler-utils, which `make test` installs): `pdftocairo` (poppler's
  /// cairo backend, which MagpiePDF uses too) and `pdftoppm` (its Splash
  /// rasteriser, an independent one).
  enum PDFReference {
    /// `tool`'s drawing of page `page` (from 1) of `pdf` at 72 dpi, or
    /// scaled to `size`, decoded as straight RGBA.
    static func render(_ tool: String, _ pdf: URL, page: Int, size: PixelSize? = nil) throws -> PixelBuffer {
      let dir = try TemporaryDirectory()
      var arguments = ["-png", "-r", "72", "-f", String(page), "-l", String(page), "-singlefile"]
      if let size { arguments += ["-scale-to-x", String(size.width), "-scale-to-y", String(size.height)] }
      try ReferenceTool.run(tool, arguments + [pdf.path, dir.path("out")])
      return try ReferenceTool.png(dir.path("out.png"))
    }

    /// The peak signal-to-noise ratio of `a` against `b` over RGB, in dB
    /// (infinity when they are equal; 0 when their sizes differ).
    static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
      guard a.size == b.size else { return 0 }
      let x = a.straightRGBA()
      let y = b.straightRGBA()
      var sum = 0.0
      for i in stride(from: 0, to: x.count, by: 4) {
        for c in 0..<3 {
          let d = Double(x[i + c]) - Double(y[i + c])
          sum += d * d
        }
      }
      let mse = sum / Double(x.count / 4 * 3)
      return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
  }
#endif
