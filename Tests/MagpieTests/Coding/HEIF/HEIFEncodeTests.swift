#if canImport(MagpieHEIF)
  import Foundation
  import Magpie
  @testable import MagpieHEIF
  import Testing

  /// What HEIFCoder writes, read back by libheif's own `heif-convert`
  /// (libheif-examples: the reference reader, not Magpie's decode path)
  /// into PNG or JPEG, which Magpie's coders then read.
  @Suite struct HEIFEncodeTests {
    let coder = HEIFCoder()

    static func photo() throws -> Image {
      try PNGCoder().decode(try TestPaths.fixture("photos/birds.png"), options: DecodeOptions())
    }

    static func heifConvert(_ data: Data) throws -> Image {
      try ReferenceTool.decodeToPNG("heif-convert", data, inputName: "in.heic")
    }

    @Test func encodesOnlyHEIC() {
      #expect(coder.canEncode(to: .heic))
      #expect(!coder.canEncode(to: .png))
      #expect(throws: MagpieError.self) {
        try coder.encode(Image(pixels: PixelBuffer(width: 1, height: 1)), as: .png, options: EncodeOptions())
      }
    }

    /// birds.png (768x512) at quality 90: measured 39.0 dB through
    /// heif-convert (x265 3.5, libheif 1.15); 37 leaves margin.
    @Test func lossyPhotoReadsBackThroughHeifConvert() throws {
      let photo = try Self.photo()
      let encoded = try coder.encode(photo, as: .heic, options: EncodeOptions(quality: 90))
      #expect(ImageFormat.sniff(encoded) == .heic)
      let theirs = try Self.heifConvert(encoded)
      #expect(theirs.pixelSize == photo.pixelSize)
      let psnr = GIFWebPFixtureTests.psnr(photo.pixels.straightRGBA(), theirs.pixels.straightRGBA())
      #expect(psnr >= 37, "PSNR \(psnr) dB at quality 90")
    }

    /// birds.png: 237 180 bytes at quality 90, 5 576 at 30.
    @Test func lowerQualityIsSmaller() throws {
      let photo = try Self.photo()
      let high = try coder.encode(photo, as: .heic, options: EncodeOptions(quality: 90))
      let low = try coder.encode(photo, as: .heic, options: EncodeOptions(quality: 30))
      #expect(low.count < high.count, "\(low.count) bytes at 30, \(high.count) at 90")
    }

    /// An alpha ramp over birds.png at quality 90 keeps its alpha (an
    /// auxiliary image, coded lossy too): measured alpha within 1 and the
    /// colour 43.5 dB alpha-weighted; bounds 2 and 41.
    @Test func alphaIsKept() throws {
      let photo = try ReferenceTool.photoWithAlpha("birds.png")
      let encoded = try coder.encode(photo, as: .heic, options: EncodeOptions(quality: 90))
      let theirs = try Self.heifConvert(encoded)
      #expect(!theirs.pixels.isOpaque)
      let ours = photo.pixels.straightRGBA()
      let back = theirs.pixels.straightRGBA()
      let alphaError = stride(from: 3, to: ours.count, by: 4).map { abs(Int(ours[$0]) - Int(back[$0])) }.max() ?? 0
      #expect(alphaError <= 2, "alpha off by \(alphaError)")
      let psnr = ReferenceTool.premultipliedPSNR(ours, back)
      #expect(psnr >= 41, "alpha-weighted PSNR \(psnr) dB")
    }

    /// Lossless is 4:4:4 with the identity matrix: measured exact (max
    /// difference 0) through heif-convert, alpha included.
    @Test func losslessIsExact() throws {
      let photo = try ReferenceTool.photoWithAlpha("birds.png")
      let encoded = try coder.encode(photo, as: .heic, options: EncodeOptions(lossless: true))
      let theirs = try Self.heifConvert(encoded)
      let difference = GIFWebPFixtureTests.maxDifference(photo.pixels.straightRGBA(), theirs.pixels.straightRGBA())
      #expect(difference == 0, "lossless HEIC off by \(difference)")
    }

    /// The profile's bytes, in a `prof` box, as Magpie's decoder and
    /// heif-convert (which writes it into its PNG) read them; lossless
    /// writes an nclx box beside it and stays exact.
    @Test(arguments: [false, true])
    func iccProfileIsEmbedded(lossless: Bool) throws {
      var photo = try Self.photo()
      let icc = try TestPaths.fixture("color/p3.icc")
      photo.colorProfile = ColorProfile(iccData: icc)
      let encoded = try coder.encode(photo, as: .heic, options: EncodeOptions(quality: 60, lossless: lossless))
      var options = DecodeOptions()
      options.colorManagement = .preserve
      #expect(try coder.decode(encoded, options: options).colorProfile?.iccData == icc)
      let theirs = try Self.heifConvert(encoded)
      #expect(theirs.colorProfile?.iccData == icc)
      if lossless { #expect(theirs.pixels.straightRGBA() == photo.pixels.straightRGBA()) }
    }

    /// orient6.jpg's EXIF, decoded upright: heif-convert copies the `Exif`
    /// item into its JPEG, where the JPEG reader finds it, orientation 1.
    @Test func exifIsKeptOnlyWhenAsked() throws {
      var decode = DecodeOptions()
      decode.keepsMetadata = true
      let image = try CoderRegistry.shared.decode(try TestPaths.fixture("jpeg/orient6.jpg"), options: decode)
      let exif = try #require(image.metadata?.exifToWrite)
      var options = EncodeOptions(quality: 50)
      options.keepsMetadata = true
      let kept = try coder.encode(image, as: .heic, options: options)
      let jpeg = try ReferenceTool.run(
        "heif-convert", ["IN", "OUT"], input: kept, inputName: "in.heic", outputName: "out.jpg"
      ).output!
      #expect(ImageMetadata.read(from: jpeg).exif == exif)
      let dropped = try coder.encode(image, as: .heic, options: EncodeOptions(quality: 50))
      let info = try ReferenceTool.run("heif-info", ["IN"], input: dropped, inputName: "in.heic").stdout
      #expect(info.contains("metadata:\n  none"), "\(info)")
    }

    @Test func speedPicksAPreset() throws {
      var options = EncodeOptions(quality: 70)
      options.speed = 10
      let fast = try coder.encode(try Self.photo(), as: .heic, options: options)
      #expect(try Self.heifConvert(fast).pixelSize == PixelSize(width: 768, height: 512))
    }

    /// Premultiplied pixels are written straight: lossless, the file holds
    /// exactly what `straightRGBA()` gives back.
    @Test func premultipliedPixelsAreWrittenStraight() throws {
      let photo = try ReferenceTool.premultipliedPhoto("birds.png")
      #expect(photo.pixels.alphaRepresentation == .premultiplied)
      let encoded = try coder.encode(photo, as: .heic, options: EncodeOptions(lossless: true))
      #expect(try Self.heifConvert(encoded).pixels.straightRGBA() == photo.pixels.straightRGBA())
    }

    @Test func refusesASideOverTheLimitBeforeEncoding() {
      let wide = Image(pixels: PixelBuffer(width: HEIFEncoder.maxDimension + 1, height: 1))
      #expect {
        try coder.encode(wide, as: .heic, options: EncodeOptions())
      } throws: { ($0 as? MagpieError)?.code == .imageTooLarge }
    }
  }
#endif
