#if canImport(MagpieJXL)
  import Foundation
  import Magpie
  @testable import MagpieJXL
  import Testing

  /// What JXLCoder writes, read back by libjxl's own `djxl` into PNG
  /// (libjxl-tools: the reference decoder) and described by `jxlinfo`.
  @Suite struct JXLEncodeTests {
    let coder = JXLCoder()

    static func photo() throws -> Image {
      try PNGCoder().decode(try TestPaths.fixture("photos/birds.png"), options: DecodeOptions())
    }

    static func djxl(_ data: Data) throws -> Image {
      try ReferenceTool.decodeToPNG("djxl", data, inputName: "in.jxl")
    }

    @Test func encodesOnlyJXL() {
      #expect(coder.canEncode(to: .jxl))
      #expect(!coder.canEncode(to: .png))
      #expect(throws: MagpieError.self) {
        try coder.encode(Image(pixels: PixelBuffer(width: 1, height: 1)), as: .png, options: EncodeOptions())
      }
    }

    /// cjxl 0.7's quality-to-distance mapping, capped at libjxl 0.7's 15.
    @Test func qualityMapsToDistanceAsCjxlDoes() {
      #expect(JXLEncodeSettings.distance(quality: 90) == 1)
      #expect(abs(JXLEncodeSettings.distance(quality: 30) - 6.4) < 0.0001)
      #expect(abs(JXLEncodeSettings.distance(quality: 20) - 9.07) < 0.01)
      #expect(JXLEncodeSettings.distance(quality: 0) == 15)
      #expect(abs(JXLEncodeSettings.distance(quality: 100) - 0.1) < 0.0001)
      #expect(JXLEncodeSettings.effort(speed: nil) == 7)
      #expect(JXLEncodeSettings.effort(speed: 0) == 9)
      #expect(JXLEncodeSettings.effort(speed: 10) == 1)
    }

    /// Every sample, alpha included, of an RGBA image whose colours are
    /// noise under every alpha value (colour under alpha 0 too), and of an
    /// opaque photo.
    @Test(arguments: ["alpha/rgba.png", "photos/birds.png"])
    func losslessIsExactThroughDjxl(_ fixture: String) throws {
      let image = try PNGCoder().decode(try TestPaths.fixture(fixture), options: DecodeOptions())
      let encoded = try coder.encode(image, as: .jxl, options: EncodeOptions(lossless: true))
      #expect(ImageFormat.sniff(encoded) == .jxl)
      let theirs = try Self.djxl(encoded)
      #expect(theirs.pixelSize == image.pixelSize)
      let difference = GIFWebPFixtureTests.maxDifference(image.pixels.straightRGBA(), theirs.pixels.straightRGBA())
      #expect(difference == 0, "lossless JXL off by \(difference)")
    }

    /// birds.png at quality 90 (distance 1): measured 37.5 dB through
    /// djxl; 36 leaves margin.
    @Test func lossyPhotoReadsBackThroughDjxl() throws {
      let photo = try Self.photo()
      let encoded = try coder.encode(photo, as: .jxl, options: EncodeOptions(quality: 90))
      let psnr = GIFWebPFixtureTests.psnr(photo.pixels.straightRGBA(), try Self.djxl(encoded).pixels.straightRGBA())
      #expect(psnr >= 36, "PSNR \(psnr) dB at quality 90")
    }

    /// An alpha ramp over birds.png at quality 90 keeps its alpha: measured
    /// alpha within 1 and the colour 41.8 dB alpha-weighted; bounds 2 and 40.
    @Test func lossyAlphaIsKept() throws {
      let photo = try ReferenceTool.photoWithAlpha("birds.png")
      let encoded = try coder.encode(photo, as: .jxl, options: EncodeOptions(quality: 90))
      let ours = photo.pixels.straightRGBA()
      let back = try Self.djxl(encoded).pixels.straightRGBA()
      let alphaError = stride(from: 3, to: ours.count, by: 4).map { abs(Int(ours[$0]) - Int(back[$0])) }.max() ?? 0
      #expect(alphaError <= 2, "alpha off by \(alphaError)")
      let psnr = ReferenceTool.premultipliedPSNR(ours, back)
      #expect(psnr >= 40, "alpha-weighted PSNR \(psnr) dB")
    }

    /// birds.png: 35 177 bytes at quality 90, 9 182 at 30.
    @Test func lowerQualityIsSmaller() throws {
      let photo = try Self.photo()
      let high = try coder.encode(photo, as: .jxl, options: EncodeOptions(quality: 90))
      let low = try coder.encode(photo, as: .jxl, options: EncodeOptions(quality: 30))
      #expect(low.count < high.count, "\(low.count) bytes at 30, \(high.count) at 90")
    }

    @Test func speedSetsTheEffort() throws {
      var options = EncodeOptions(quality: 80)
      options.speed = 10
      let fast = try coder.encode(try Self.photo(), as: .jxl, options: options)
      #expect(try Self.djxl(fast).pixelSize == PixelSize(width: 768, height: 512))
    }

    /// Lossless keeps the original colour space, so the stored profile is
    /// the one the pixels come out in, byte for byte, as JXLCoder and djxl
    /// (into its PNG) read it.
    @Test func iccProfileIsEmbeddedLosslessly() throws {
      var photo = try Self.photo()
      let icc = try TestPaths.fixture("color/p3.icc")
      photo.colorProfile = ColorProfile(iccData: icc)
      let encoded = try coder.encode(photo, as: .jxl, options: EncodeOptions(lossless: true))
      var options = DecodeOptions()
      options.colorManagement = .preserve
      #expect(try coder.decode(encoded, options: options).colorProfile?.iccData == icc)
      #expect(try Self.djxl(encoded).colorProfile?.iccData == icc)
    }

    /// Lossy goes through XYB: libjxl 0.7 gives the pixels back in the
    /// space it recognised in the profile (Display P3), with a profile of
    /// its own making; converted to sRGB they match the lossless file's
    /// (measured 38.3 dB, bound 35; the P3 pixels read as sRGB: 22.6 dB).
    @Test func lossyKeepsTheProfilesColours() throws {
      var photo = try Self.photo()
      photo.colorProfile = ColorProfile(iccData: try TestPaths.fixture("color/p3.icc"))
      let lossless = try coder.encode(photo, as: .jxl, options: EncodeOptions(lossless: true))
      let lossy = try coder.encode(photo, as: .jxl, options: EncodeOptions(quality: 90))
      let registry = CoderRegistry()
      registry.register(coder)
      let exact = try registry.decode(lossless).pixels.straightRGBA()
      let converted = try registry.decode(lossy).pixels.straightRGBA()
      let untagged = photo.pixels.straightRGBA()
      let psnr = GIFWebPFixtureTests.psnr(exact, converted)
      #expect(psnr >= 35, "PSNR \(psnr) dB against the lossless file in sRGB")
      // The P3 pixels taken as sRGB are far off (22.6 dB): the test tells.
      #expect(GIFWebPFixtureTests.psnr(exact, untagged) < 30)
    }

    /// Premultiplied pixels are written straight: lossless, the file holds
    /// exactly what `straightRGBA()` gives back.
    @Test func premultipliedPixelsAreWrittenStraight() throws {
      let photo = try ReferenceTool.premultipliedPhoto("birds.png")
      #expect(photo.pixels.alphaRepresentation == .premultiplied)
      let encoded = try coder.encode(photo, as: .jxl, options: EncodeOptions(lossless: true))
      #expect(try Self.djxl(encoded).pixels.straightRGBA() == photo.pixels.straightRGBA())
    }

    @Test func refusesASizeOverLevel5BeforeEncoding() {
      let wide = Image(pixels: PixelBuffer(width: JXLEncodeSettings.maxDimension + 1, height: 1))
      #expect {
        try coder.encode(wide, as: .jxl, options: EncodeOptions())
      } throws: { ($0 as? MagpieError)?.code == .imageTooLarge }
    }
  }
#endif
