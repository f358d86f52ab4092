#if canImport(MagpieHEIF)
  import Foundation
  import Magpie
  import MagpieHEIF
  import Testing

  /// HEIC files heif-enc made from our photos decode to heif-convert's
  /// pixels (tolerance 0: the same libheif decode, and 10-bit samples
  /// rounded as the reference rounds them).
  @Suite struct HEIFDecodeTests {
    static let stills = [
      "8bit.heic", "10bit.heic", "alpha.heic", "rotated.heic", "exif6.heic", "icc.heic", "thumb.heic",
      "alpha-opaque-thumb.heic",
    ]

    private func decode(_ name: String, _ options: DecodeOptions = DecodeOptions()) throws -> Image {
      try HEIFCoder().decode(ReferenceFixture.data("heif", name), options: options)
    }

    @Test(arguments: stills) func decodesToHeifConvert(name: String) throws {
      let entry = try ReferenceFixture.entry("heif", name)
      let image = try decode(name)
      let reference = try ReferenceFixture.frame("heif", name)
      #expect(image.format == .heic)
      #expect(image.pixels.alphaRepresentation == .straight)
      #expect(image.pixelSize == reference.size)
      #expect(ReferenceFixture.maxDifference(image.pixels, reference) <= entry.tolerance, "\(entry.reference)")
    }

    @Test func alphaIsKeptAndOpaqueFilesSayOpaque() throws {
      #expect(try !decode("alpha.heic").pixels.isOpaque)
      #expect(try decode("8bit.heic").pixels.isOpaque)
      #expect(try decode("10bit.heic").pixels.isOpaque)
    }

    @Test func irotIsAppliedOnceAndEXIFOrientationIsNot() throws {
      let rotated = try decode("rotated.heic")
      #expect(rotated.pixelSize == PixelSize(width: 48, height: 64))
      #expect(rotated.orientation == .up)
      // EXIF orientation 6 without irot: HEIF readers keep the stored pixels.
      #expect(try decode("exif6.heic").pixelSize == PixelSize(width: 64, height: 48))
    }

    @Test func iccProfileIsAttachedUnconverted() throws {
      let image = try decode("icc.heic")
      #expect(image.colorProfile?.iccData == (try ReferenceFixture.data("heif", "icc.heic.icc")))
      #expect(try decode("8bit.heic").colorProfile == nil)
    }

    /// The 32x24 thumbnail item is what comes back when it covers the
    /// target: its own pixels, not a reduction of the 256x192 image.
    @Test(arguments: [PixelSize(width: 32, height: 24), PixelSize(width: 20, height: 20)])
    func thumbnailIsUsedWhenItCovers(target: PixelSize) throws {
      let image = try decode("thumb.heic", DecodeOptions(targetSize: target))
      let thumbnail = try ReferenceFixture.frame("heif", "thumb.heic.thumbnail")
      #expect(image.pixelSize == thumbnail.size)
      #expect(image.pixels == thumbnail)
    }

    /// A file flagged premultiplied comes out as the premultiplied bytes it
    /// stores (libheif 1.15 does not undo it), saying so.
    @Test func premultipliedFilesSayPremultiplied() throws {
      let image = try decode("premultiplied.heic")
      #expect(image.pixels.alphaRepresentation == .premultiplied)
      let reference = [UInt8](try ReferenceFixture.data("heif", "premultiplied.heic.rgba"))
      #expect(image.pixels.bytes == reference)
    }

    @Test func aThumbnailWithoutTheImagesAlphaIsNotUsed() throws {
      let image = try decode("alpha-opaque-thumb.heic", DecodeOptions(targetSize: PixelSize(width: 32, height: 24)))
      #expect(!image.pixels.isOpaque)
      #expect(image.pixelSize == PixelSize(width: 32, height: 24))
      let reference = Resampler.boxReduce(
        try ReferenceFixture.frame("heif", "alpha-opaque-thumb.heic"), factorX: 2, factorY: 2)
      #expect(image.pixels == reference)
    }

    @Test func aspectFillNeedingMoreThanTheThumbnailDecodesThePrimary() throws {
      // Filling 40x40 needs 54x40 of a 4:3 image: more than the 32x24 thumbnail.
      let options = DecodeOptions(targetSize: PixelSize(width: 40, height: 40), contentMode: .aspectFill)
      let image = try decode("thumb.heic", options)
      #expect(image.pixelSize.width >= 54 && image.pixelSize.height >= 40)
      #expect(image.pixelSize.width < 256)
    }

    /// Without a covering thumbnail the decode is box-reduced by the largest
    /// factor that still covers the target, never below it.
    @Test func primaryIsBoxReducedToCoverTheTarget() throws {
      let image = try decode("thumb.heic", DecodeOptions(targetSize: PixelSize(width: 100, height: 100)))
      #expect(image.pixelSize == PixelSize(width: 128, height: 96))
      let reference = Resampler.boxReduce(try ReferenceFixture.frame("heif", "thumb.heic"), factorX: 2, factorY: 2)
      #expect(image.pixels == reference)
      let small = try decode("8bit.heic", DecodeOptions(targetSize: PixelSize(width: 20, height: 20)))
      #expect(small.pixelSize == PixelSize(width: 22, height: 16))
    }

    @Test func pixelLimitIsCheckedAgainstWhatIsDecoded() throws {
      #expect {
        try decode("8bit.heic", DecodeOptions(maxPixelCount: 3000))
      } throws: { ($0 as? MagpieError)?.code == .imageTooLarge }
      // The 768-pixel thumbnail is within a limit the 49152-pixel primary is not.
      let options = DecodeOptions(targetSize: PixelSize(width: 32, height: 24), maxPixelCount: 1000)
      #expect(try decode("thumb.heic", options).pixelSize == PixelSize(width: 32, height: 24))
    }

    @Test func infoReadsTheBoxesOnly() throws {
      let info = try HEIFCoder().info(of: ReferenceFixture.data("heif", "rotated.heic"))
      #expect(info.format == .heic)
      #expect(info.size == PixelSize(width: 48, height: 64))
      #expect(info.frameCount == 1)
      #expect(info.byteCount == (try ReferenceFixture.data("heif", "rotated.heic")).count)
    }
  }
#endif
