#if canImport(MagpieTIFF)
  import Foundation
  import MagpieTIFF
  import Testing

  @testable import Magpie

  /// With a target size, a reduced-resolution copy of the page that still
  /// covers it is decoded instead (pyramid.tif: a 48x32 page, 24x16 and
  /// 12x8 copies marked reduced in the chain; subifd.tif: the 24x16 copy
  /// as a SubIFD), and never one smaller than the target needs.
  @Suite struct TIFFReductionTests {
    private func decode(_ name: String, target: PixelSize, mode: DecodeOptions.ContentMode = .aspectFit) throws
      -> Image
    {
      try TIFFCoder().decode(
        ReferenceFixture.data("tiff", name), options: DecodeOptions(targetSize: target, contentMode: mode))
    }

    @Test(arguments: [
      (PixelSize(width: 24, height: 16), "pyramid.tif.half"),
      (PixelSize(width: 20, height: 20), "pyramid.tif.half"),
      (PixelSize(width: 10, height: 10), "pyramid.tif.quarter"),
      (PixelSize(width: 12, height: 8), "pyramid.tif.quarter"),
      (PixelSize(width: 30, height: 30), "pyramid.tif"),
      (PixelSize(width: 100, height: 100), "pyramid.tif"),
    ])
    func theSmallestCoveringCopyIsDecoded(target: PixelSize, reference: String) throws {
      let image = try decode("pyramid.tif", target: target)
      #expect(image.frames.count == 1)
      #expect(image.pixels == (try ReferenceFixture.frame("tiff", reference)))
    }

    @Test func aspectFillNeedingMoreThanACopyDecodesThePage() throws {
      // Filling 20x20 needs 30x20 of a 3:2 image: more than the 24x16 copy.
      let image = try decode("pyramid.tif", target: PixelSize(width: 20, height: 20), mode: .aspectFill)
      #expect(image.pixels == (try ReferenceFixture.frame("tiff", "pyramid.tif")))
    }

    @Test func aSubIFDCopyIsUsedToo() throws {
      let reduced = try decode("subifd.tif", target: PixelSize(width: 24, height: 16))
      #expect(reduced.pixels == (try ReferenceFixture.frame("tiff", "pyramid.tif.half")))
      let full = try TIFFCoder().decode(ReferenceFixture.data("tiff", "subifd.tif"), options: DecodeOptions())
      #expect(full.pixels == (try ReferenceFixture.frame("tiff", "pyramid.tif")))
    }

    @Test func pagesAreNotReducedAndKeepTheirCount() throws {
      let image = try decode("pages.tif", target: PixelSize(width: 4, height: 4))
      #expect(image.frames.count == 3)
      #expect(image.pixelSize == PixelSize(width: 36, height: 20))
    }
  }
#endif
