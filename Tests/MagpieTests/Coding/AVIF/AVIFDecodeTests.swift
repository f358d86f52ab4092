#if canImport(MagpieAVIF)
  import Foundation
  import Magpie
  import MagpieAVIF
  import Testing

  /// Still AVIFs decode to avifdec's pixels exactly. Tolerance 0: 8-bit
  /// files go through the same libavif conversion avifdec uses (same
  /// defaults, automatic chroma upsampling), and deeper files are rounded
  /// from libavif's 16-bit conversion exactly as the reference is, so the
  /// conversion is deterministic end to end; clap, irot and imir are exact
  /// pixel moves, applied to the reference by numpy.
  @Suite struct AVIFDecodeTests {
    let coder = AVIFCoder()

    @Test(arguments: AVIFFixtures.stills)
    func decodesToTheReference(name: String) throws {
      let entry = try #require(AVIFFixtures.manifest[name])
      let image = try coder.decode(try AVIFFixtures.data(name), options: DecodeOptions())
      #expect(image.format == .avif)
      #expect(image.frames.count == 1)
      #expect(image.pixelSize == PixelSize(width: entry.width, height: entry.height))
      #expect(image.orientation.rawValue == entry.orientation)
      #expect(image.pixels.alphaRepresentation == .straight)
      #expect(image.pixels.isOpaque == !entry.alpha)
      let decoded = AVIFFixtures.straight(image.pixels)
      let expected = try AVIFFixtures.reference(name)[0]
      #expect(AVIFFixtures.maxDifference(decoded, expected) == 0, "\(name)")
    }

    @Test func everyDepthAndSubsamplingIsCovered() {
      let pairs = Set(AVIFFixtures.manifest.values.map { "\($0.depth)/\($0.yuv)" })
      for depth in [8, 10, 12] {
        for yuv in ["420", "444", "400"] { #expect(pairs.contains("\(depth)/\(yuv)")) }
      }
      #expect(pairs.contains("8/422") && pairs.contains("10/422"))
    }

    @Test func orientationCanBeLeftUnapplied() throws {
      var options = DecodeOptions()
      options.appliesOrientation = false
      let turned = try coder.decode(try AVIFFixtures.data("irot1_imir0.avif"), options: options)
      let plain = try coder.decode(try AVIFFixtures.data("irot1.avif"), options: options)
      #expect(turned.orientation == .leftMirrored)
      #expect(turned.pixelSize == PixelSize(width: 64, height: 48))
      #expect(turned.pixels == plain.pixels)
      #expect(
        turned.pixels.applying(.leftMirrored).straightRGBA() == (try AVIFFixtures.reference("irot1_imir0.avif")[0]))
    }

    @Test func theCleanApertureIsCroppedBeforeTheTurn() throws {
      let image = try coder.decode(try AVIFFixtures.data("clap_irot1_imir1.avif"), options: DecodeOptions())
      // 48x32 aperture of 64x48, then a quarter turn: 32x48.
      #expect(image.pixelSize == PixelSize(width: 32, height: 48))
      #expect(image.orientation == .rightMirrored)
    }

    @Test func anICCProfileIsCarriedAndNclxIsNot() throws {
      let tagged = try coder.decode(try AVIFFixtures.data("icc.avif"), options: DecodeOptions())
      let profile = try #require(tagged.colorProfile)
      #expect(profile.iccData.count == 588)
      #expect(profile.iccData.subdata(in: 36..<40) == Data("acsp".utf8))
      let plain = try coder.decode(try AVIFFixtures.data("d8_444.avif"), options: DecodeOptions())
      #expect(plain.colorProfile == nil)
    }

    @Test func targetSizeDecodesAtFullSizeStraight() throws {
      var options = DecodeOptions(targetSize: PixelSize(width: 16, height: 16))
      options.keepsOriginalData = true
      let data = try AVIFFixtures.data("alpha_d8_444.avif")
      let image = try coder.decode(data, options: options)
      #expect(image.pixelSize == PixelSize(width: 64, height: 48))
      #expect(image.pixels.alphaRepresentation == .straight)
      #expect(image.originalData == data)
    }

    @Test func theRegistryPicksTheCoderBySniffing() throws {
      let registry = CoderRegistry()
      registry.register(AVIFCoder())
      let data = try AVIFFixtures.data("d8_420.avif")
      #expect(ImageFormat.sniff(data) == .avif)
      #expect(ImageFormat.sniff(try AVIFFixtures.data("sequence.avifs")) == .avif)
      #expect(try registry.decode(data).pixelSize == PixelSize(width: 64, height: 48))
    }
  }
#endif
