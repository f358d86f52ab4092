#if canImport(MagpiePDF)
  import Foundation
  import Magpie
  import MagpiePDF
  import Testing

  /// PDF pages draw as poppler's own tools draw them: exactly as pdftocairo
  /// (the same poppler and cairo), and within 25 dB PSNR of pdftoppm's
  /// Splash rasteriser, which anti-aliases edges its own way.
  @Suite struct PDFRenderTests {
    private func url(_ name: String) -> URL { TestPaths.fixtures.appendingPathComponent("pdf/\(name)") }
    private func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    @Test(arguments: [("pages.pdf", 1), ("pages.pdf", 2), ("pages.pdf", 3), ("rotated.pdf", 1)])
    func aPageDrawsAt72DPIAsPdftocairoDraws(name: String, page: Int) throws {
      let image = try PDFCoder().decodeSubimage(at: page - 1, in: data(name), options: DecodeOptions())
      let reference = try PDFReference.render("pdftocairo", url(name), page: page)
      #expect(image.format == .pdf)
      #expect(image.pixels.isOpaque)
      #expect(image.pixelSize == reference.size)
      #expect(ReferenceFixture.maxDifference(image.pixels, reference) == 0)
      let splash = try PDFReference.render("pdftoppm", url(name), page: page)
      #expect(PDFReference.psnr(image.pixels, splash) >= 25, "against pdftoppm")
    }

    @Test func theFirstPageIsTheImageAndThePagesAreListed() throws {
      let registry = CoderRegistry(builtIn: [PDFCoder()])
      let image = try registry.decode(data("pages.pdf"))
      #expect(image.pixelSize == PixelSize(width: 200, height: 100))
      let pages = try #require(try registry.subimages(in: data("pages.pdf")))
      // 150.5 x 80.25 pt rounds up to 151 x 81 pixels, as pdftocairo's does.
      #expect(pages.map(\.size) == [(200, 100), (300, 400), (151, 81)].map { PixelSize(width: $0.0, height: $0.1) })
    }

    @Test func aTargetSizeDrawsThePageThereNotScaledAfterwards() throws {
      var options = DecodeOptions()
      options.targetSize = PixelSize(width: 800, height: 800)
      let image = try PDFCoder().decode(data("pages.pdf"), options: options)
      #expect(image.pixelSize == PixelSize(width: 800, height: 400))
      let reference = try PDFReference.render("pdftocairo", url("pages.pdf"), page: 1, size: image.pixelSize)
      #expect(ReferenceFixture.maxDifference(image.pixels, reference) <= 1)
    }
  }
#endif
