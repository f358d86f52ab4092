#if canImport(MagpieTIFF)
  import Foundation
  import MagpieTIFF
  import Testing

  @testable import Magpie

  /// TIFFs written by Scripts/fixtures/make_tiff_fixtures.py (its own
  /// writer, tiffcp, Pillow) decode to the pixels Pillow or tiff2rgba give:
  /// exactly for lossless files, within the manifest's stated bound for
  /// JPEG-in-TIFF and for associated alpha divided back to straight.
  @Suite struct TIFFDecodeTests {
    static let stills = [
      "rgb.tif", "rgb-lzw.tif", "rgb-zip.tif", "rgb-packbits.tif", "rgb-tiles.tif", "ycbcr-jpeg.tif", "grey1.tif",
      "grey2.tif", "grey4.tif", "grey8.tif", "grey16.tif", "rgb16.tif", "palette4.tif", "palette8.tif",
      "rgba-unassociated.tif", "rgba-associated.tif", "cmyk.tif", "orientation6.tif", "pyramid.tif", "icc.tif",
      "rgb-lzw-predictor.tif", "rgb-planar.tif", "rgb-bigendian.tif", "rgb-bigtiff.tif", "bilevel-g4.tif",
      "grey-alpha.tif",
    ]

    static func decode(_ name: String, _ options: DecodeOptions = DecodeOptions()) throws -> Image {
      try TIFFCoder().decode(ReferenceFixture.data("tiff", name), options: options)
    }

    @Test(arguments: stills) func decodesToTheReference(name: String) throws {
      let entry = try ReferenceFixture.entry("tiff", name)
      let image = try Self.decode(name)
      let reference = try ReferenceFixture.frame("tiff", name)
      #expect(image.format == .tiff)
      #expect(image.frames.count == 1)
      #expect(image.pixels.alphaRepresentation == .straight)
      #expect(image.pixelSize == reference.size)
      #expect(ReferenceFixture.maxDifference(image.pixels, reference) <= entry.tolerance, "\(entry.reference)")
    }

    @Test func lossyAndLossyAlphaFilesStayWithinTheirStatedBound() throws {
      // The exact-match files above pass at tolerance 0; these two need theirs.
      #expect(try ReferenceFixture.entry("tiff", "ycbcr-jpeg.tif").tolerance == 2)
      #expect(try ReferenceFixture.entry("tiff", "rgba-associated.tif").tolerance == 1)
      for name in Self.stills where !["ycbcr-jpeg.tif", "rgba-associated.tif"].contains(name) {
        #expect(try ReferenceFixture.entry("tiff", name).tolerance == 0, "\(name)")
      }
    }

    @Test func alphaIsStraightAndOpaqueFilesSayOpaque() throws {
      let unassociated = try Self.decode("rgba-unassociated.tif")
      #expect(!unassociated.pixels.isOpaque)
      #expect(try !Self.decode("grey-alpha.tif").pixels.isOpaque)
      // Stored straight: every value comes back exactly, even at alpha 1.
      #expect(unassociated.pixels == (try ReferenceFixture.frame("tiff", "rgba-unassociated.tif")))
      #expect(try !Self.decode("rgba-associated.tif").pixels.isOpaque)
      for name in ["rgb.tif", "grey1.tif", "palette4.tif", "cmyk.tif", "ycbcr-jpeg.tif", "grey16.tif"] {
        #expect(try Self.decode(name).pixels.isOpaque, "\(name)")
      }
    }

    @Test func orientationIsReportedAndAppliedOnlyWhenAsked() throws {
      let turned = try Self.decode("orientation6.tif")
      #expect(turned.orientation == .right)
      #expect(turned.pixelSize == PixelSize(width: 20, height: 36))
      var options = DecodeOptions()
      options.appliesOrientation = false
      let stored = try Self.decode("orientation6.tif", options)
      #expect(stored.orientation == .right)
      #expect(stored.pixels == (try ReferenceFixture.frame("tiff", "rgb.tif")))
      let info = try TIFFCoder().info(of: ReferenceFixture.data("tiff", "orientation6.tif"))
      #expect(info.orientation == .right)
      #expect(info.size == PixelSize(width: 20, height: 36))
    }

    @Test func pagesAreFramesAndFirstFrameOnlyReadsOne() throws {
      let image = try Self.decode("pages.tif")
      #expect(image.frames.count == 3)
      #expect(image.loopCount == 0)
      for (index, frame) in image.frames.enumerated() {
        #expect(frame.duration == .zero)
        #expect(frame.pixels == (try ReferenceFixture.frame("tiff", "pages.tif", index)), "page \(index)")
      }
      var options = DecodeOptions()
      options.firstFrameOnly = true
      let first = try Self.decode("pages.tif", options)
      #expect(first.frames.count == 1)
      #expect(first.pixels == image.frames[0].pixels)
      let info = try TIFFCoder().info(of: ReferenceFixture.data("tiff", "pages.tif"))
      #expect(info.frameCount == 3)
      #expect(info.frameDurations == [.zero, .zero, .zero])
      #expect(info.size == PixelSize(width: 36, height: 20))
      // Reduced copies are not pages.
      #expect(try TIFFCoder().info(of: ReferenceFixture.data("tiff", "pyramid.tif")).frameCount == 1)
    }

    /// The core sniffs BigTIFF as TIFF, and the coder takes it even unsniffed.
    @Test func bigTIFFIsTakenThroughTheRegistry() throws {
      let data = try ReferenceFixture.data("tiff", "rgb-bigtiff.tif")
      #expect(ImageFormat.sniff(data) == .tiff)
      #expect(TIFFCoder().canDecode(data, format: .unknown))
      #expect(!TIFFCoder().canDecode(try TestPaths.fixture("color/p3.icc"), format: .unknown))
      let registry = CoderRegistry()
      registry.register(TIFFCoder())
      let image = try registry.decode(data, options: DecodeOptions())
      #expect(image.format == .tiff)
      #expect(image.pixels == (try ReferenceFixture.frame("tiff", "rgb-bigtiff.tif")))
    }

    /// pages-mixed.tif: 36x20, then 20x36 with orientation 6 (36x20
    /// upright), then 20x12. Only the first is a frame, turned or not.
    @Test func pagesOfAnotherSizeOrOrientationAreNoFrames() throws {
      let reference = try ReferenceFixture.frame("tiff", "pages-mixed.tif")
      var options = DecodeOptions()
      for applies in [true, false] {
        options.appliesOrientation = applies
        let image = try Self.decode("pages-mixed.tif", options)
        #expect(image.frames.count == 1)
        #expect(image.pixels == reference)
      }
      #expect(try TIFFCoder().info(of: ReferenceFixture.data("tiff", "pages-mixed.tif")).frameCount == 1)
    }

    /// Every page of pages-mixed.tif is a subimage at its own size.
    @Test func everyPageIsASubimage() throws {
      let data = try ReferenceFixture.data("tiff", "pages-mixed.tif")
      let registry = CoderRegistry(builtIn: [TIFFCoder()])
      let sizes = [(36, 20), (36, 20), (20, 12)].map { PixelSize(width: $0.0, height: $0.1) }
      #expect(try registry.subimages(in: data)?.map(\.size) == sizes)
      let pages = try registry.decodeSubimages(data)
      #expect(pages.map(\.pixelSize) == sizes)
      #expect(pages[0].pixels == (try ReferenceFixture.frame("tiff", "pages-mixed.tif")))
      #expect(pages[1].orientation == .right)
      let missing = #expect(throws: MagpieError.self) {
        try TIFFCoder().decodeSubimage(at: 3, in: data, options: DecodeOptions())
      }
      #expect(missing?.code == .invalidArgument)
    }

    @Test func iccProfileIsAttachedUnconverted() throws {
      let image = try Self.decode("icc.tif")
      #expect(image.colorProfile?.iccData == (try TestPaths.fixture("color/p3.icc")))
      #expect(try Self.decode("rgb.tif").colorProfile == nil)
    }

    @Test func theRegistryConvertsTheProfile() throws {
      let data = try ReferenceFixture.data("tiff", "icc.tif")
      let registry = CoderRegistry()
      registry.register(TIFFCoder())
      let converted = try registry.decode(data, options: DecodeOptions())
      #expect(converted.colorProfile == nil)
      #expect(converted.pixels != (try ReferenceFixture.frame("tiff", "icc.tif")))
    }
  }
#endif
