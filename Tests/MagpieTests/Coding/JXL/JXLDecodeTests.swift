#if canImport(MagpieJXL)
  import Foundation
  import Magpie
  import MagpieJXL
  import Testing

  /// JPEG XL files cjxl made from our images decode to djxl's pixels:
  /// exactly for lossless files and the 16-bit one (libjxl's UINT8 output
  /// rounds, so it equals djxl's 16-bit output rounded), within 1 for lossy
  /// ones (djxl converts floats to 8 bits itself).
  @Suite struct JXLDecodeTests {
    static let stills = ["lossless.jxl", "lossy.jxl", "alpha.jxl", "16bit.jxl", "icc.jxl"]

    private func decode(_ name: String, _ options: DecodeOptions = DecodeOptions()) throws -> Image {
      try JXLCoder().decode(ReferenceFixture.data("jxl", name), options: options)
    }

    /// A reference stored as PNG (djxl's output), read by Magpie's PNG decoder.
    private func png(_ name: String) throws -> PixelBuffer {
      try PNGCoder().decode(ReferenceFixture.data("jxl", name), options: DecodeOptions()).pixels
    }

    @Test(arguments: stills) func decodesToDjxl(name: String) throws {
      let entry = try ReferenceFixture.entry("jxl", name)
      let image = try decode(name)
      #expect(image.format == .jxl)
      #expect(image.pixels.alphaRepresentation == .straight)
      #expect(!image.isPartial)
      let difference = ReferenceFixture.maxDifference(image.pixels, try ReferenceFixture.frame("jxl", name))
      #expect(difference <= entry.tolerance, "\(entry.reference)")
    }

    @Test func alphaIsStraightAndExact() throws {
      let image = try decode("alpha.jxl")
      #expect(image.pixels == (try ReferenceFixture.frame("jxl", "alpha.jxl")))
      #expect((0..<256).map { Int(image.pixels[$0, 0][3]) } == Array(0..<256))
    }

    @Test func iccProfileIsTheTargetProfileAndSRGBHasNone() throws {
      #expect(try decode("icc.jxl").colorProfile?.iccData == (try ReferenceFixture.data("jxl", "icc.jxl.icc")))
      #expect(try decode("lossless.jxl").colorProfile == nil)
      #expect(try decode("lossy.jxl").colorProfile == nil)
    }

    /// libjxl turns the pixels (keep_orientation false); the orientation
    /// stays on the image for callers, and is not applied a second time.
    @Test func orientationIsAppliedByLibjxlOnce() throws {
      let entry = try ReferenceFixture.entry("jxl", "orientation6.jxl")
      let image = try decode("orientation6.jxl")
      #expect(image.orientation == .right)
      #expect(image.pixelSize == PixelSize(width: 48, height: 64))
      let reference = try ReferenceFixture.frame("jxl", "orientation6.jxl")
      #expect(ReferenceFixture.maxDifference(image.pixels, reference) <= entry.tolerance)
      let stored = try decode("orientation6.jxl", DecodeOptions(appliesOrientation: false))
      #expect(stored.pixelSize == PixelSize(width: 64, height: 48))
      let info = try JXLCoder().info(of: ReferenceFixture.data("jxl", "orientation6.jxl"))
      #expect(info.size == PixelSize(width: 48, height: 64) && info.orientation == .right)
    }

    @Test func progressiveDecodesToDjxl() throws {
      let image = try decode("progressive.jxl")
      #expect(ReferenceFixture.maxDifference(image.pixels, try png("progressive.jxl.png")) <= 1)
    }

    /// Half a progressive file: libjxl's flushed passes, as djxl
    /// --allow_partial_files renders them, flagged partial.
    @Test func truncatedProgressiveGivesAPartialImage() throws {
      let data = try ReferenceFixture.data("jxl", "progressive.jxl")
      let half = data.prefix(data.count / 2)
      let image = try JXLCoder().decode(half, options: DecodeOptions())
      #expect(image.isPartial)
      #expect(ReferenceFixture.maxDifference(image.pixels, try png("progressive.jxl.partial.png")) <= 1)
      #expect {
        try JXLCoder().decode(half, options: DecodeOptions(allowsPartialImage: false))
      } throws: { ($0 as? MagpieError)?.code == .truncatedData }
    }

    @Test func pixelLimitIsCheckedFromTheBasicInfo() throws {
      #expect {
        try decode("lossless.jxl", DecodeOptions(maxPixelCount: 3000))
      } throws: { ($0 as? MagpieError)?.code == .imageTooLarge }
    }

    @Test func infoReadsHeadersOnly() throws {
      let info = try JXLCoder().info(of: ReferenceFixture.data("jxl", "anim.jxl"))
      #expect(info.format == .jxl)
      #expect(info.size == PixelSize(width: 32, height: 24))
      #expect(info.frameCount == 3)
      #expect(info.frameDurations == [.milliseconds(100), .milliseconds(250), .milliseconds(40)])
      let still = try JXLCoder().info(of: ReferenceFixture.data("jxl", "lossy.jxl"))
      #expect(still.frameCount == 1 && still.frameDurations == [.zero])
    }
  }
#endif
