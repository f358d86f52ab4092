#if canImport(MagpieSVG)
  import Foundation
  import Magpie
  import MagpieSVG
  import Testing

  /// SVGs render to rsvg-convert's pixels, at their own size or at the size
  /// asked for (premultiplied values within 1: the same librsvg and cairo,
  /// with the unpremultiply rounded differently).
  @Suite struct SVGRenderTests {
    static let files = ["shapes.svg", "viewbox-only.svg", "radial.svg"]

    private func url(_ name: String) -> URL { TestPaths.fixtures.appendingPathComponent("svg/\(name)") }

    private func decode(_ name: String, target: PixelSize? = nil, mode: DecodeOptions.ContentMode = .aspectFit)
      throws -> Image
    {
      var options = DecodeOptions()
      options.targetSize = target
      options.contentMode = mode
      return try SVGCoder().decode(Data(contentsOf: url(name)), options: options)
    }

    @Test(arguments: files) func rendersAtItsOwnSizeAsRsvgConvertDoes(name: String) throws {
      let image = try decode(name)
      let reference = try SVGReference.render(url(name))
      #expect(image.format == .svg)
      #expect(image.pixelSize == reference.size)
      #expect(SVGReference.maxPremultipliedDifference(image.pixels, reference) <= 1)
    }

    // (radial.svg's 188.98-pixel width is not a whole pixel size to triple.)
    @Test(arguments: ["shapes.svg", "viewbox-only.svg"])
    func rendersAtTheTargetSizeNotScaledAfterwards(name: String) throws {
      // Three times the intrinsic width, fitted: drawn there, sharp edges and all.
      let own = try decode(name).pixelSize
      let image = try decode(name, target: PixelSize(width: own.width * 3, height: own.height * 3))
      #expect(image.pixelSize == PixelSize(width: own.width * 3, height: own.height * 3))
      let reference = try SVGReference.render(url(name), width: own.width * 3, height: own.height * 3)
      #expect(SVGReference.maxPremultipliedDifference(image.pixels, reference) <= 1)
    }

    @Test func fitAndFillFollowTheContentMode() throws {
      // shapes.svg is 120x80 (3:2).
      #expect(
        try decode("shapes.svg", target: PixelSize(width: 300, height: 300)).pixelSize
          == PixelSize(width: 300, height: 200))
      #expect(
        try decode("shapes.svg", target: PixelSize(width: 300, height: 300), mode: .aspectFill).pixelSize
          == PixelSize(width: 450, height: 300))
    }

    @Test func theIntrinsicSizeIsWidthAndHeightElseViewBoxElseTheCSSDefault() throws {
      let registry = CoderRegistry(builtIn: [SVGCoder()])
      let sizes = try ["shapes.svg", "viewbox-only.svg", "no-size.svg", "radial.svg"].map {
        try registry.info(of: Data(contentsOf: url($0))).size
      }
      #expect(
        sizes == [
          PixelSize(width: 120, height: 80), PixelSize(width: 64, height: 48), PixelSize(width: 300, height: 150),
          // 50 mm by 25 mm at 96 dpi, rounded up as rsvg-convert does.
          PixelSize(width: 189, height: 95),
        ])
    }
  }
#endif
