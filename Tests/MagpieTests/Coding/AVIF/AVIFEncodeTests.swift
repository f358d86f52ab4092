#if canImport(MagpieAVIF)
  import Foundation
  import Magpie
  @testable import MagpieAVIF
  import Testing

  /// What AVIFCoder writes: Magpie's decode of it equals avifdec's decode
  /// of it exactly (avifdec is the independent reader; its PNG is read
  /// with the PNG coder), quality and speed take effect, alpha and
  /// sequences survive.
  @Suite struct AVIFEncodeTests {
    let coder = AVIFCoder()

    /// avifdec's decode of `data` as straight RGBA8. `make test` installs
    /// avifdec (libavif-bin): a missing tool, or one that rejects the file,
    /// is a failure, not a skip.
    static func avifdec(_ data: Data) throws -> PixelBuffer {
      let tool = "/usr/bin/avifdec"
      guard FileManager.default.isExecutableFile(atPath: tool) else {
        throw MagpieError(.unsupportedFormat, "\(tool) is not installed (make test-deps installs libavif-bin)")
      }
      let dir = try TemporaryDirectory()
      try data.write(to: URL(fileURLWithPath: dir.path("in.avif")))
      let process = Process()
      process.executableURL = URL(fileURLWithPath: tool)
      process.arguments = ["-d", "8", dir.path("in.avif"), dir.path("out.png")]
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else {
        throw MagpieError(.corruptData, "avifdec rejected Magpie's AVIF (exit \(process.terminationStatus))")
      }
      let png = try Data(contentsOf: URL(fileURLWithPath: dir.path("out.png")))
      return try PNGCoder().decode(png, options: DecodeOptions()).pixels
    }

    /// A 64x48 photo with an alpha ramp: the alpha fixture's reference.
    static func photo() throws -> Image {
      let bytes = try AVIFFixtures.reference("alpha_d8_444.avif")[0]
      return Image(pixels: PixelBuffer(width: 64, height: 48, straightRGBA: bytes), format: .png)
    }

    @Test func encodesOnlyAVIF() {
      #expect(coder.canEncode(to: .avif))
      #expect(!coder.canEncode(to: .png))
      #expect(throws: MagpieError.self) {
        try coder.encode(Image(pixels: PixelBuffer(width: 1, height: 1)), as: .png, options: EncodeOptions())
      }
    }

    @Test func ourEncodeDecodesAsAvifdecDecodesIt() throws {
      let encoded = try coder.encode(try Self.photo(), as: .avif, options: EncodeOptions(quality: 80))
      #expect(ImageFormat.sniff(encoded) == .avif)
      let ours = try coder.decode(encoded, options: DecodeOptions())
      #expect(!ours.pixels.isOpaque)
      let theirs = try Self.avifdec(encoded)
      #expect(ours.pixels.straightRGBA() == theirs.straightRGBA())
    }

    @Test func qualityTradesSizeForFidelity() throws {
      // Opaque, so every colour counts (colour under alpha 0 is free).
      let bytes = try AVIFFixtures.reference("d8_444.avif")[0]
      let photo = Image(pixels: PixelBuffer(width: 64, height: 48, straightRGBA: bytes), format: .png)
      let source = photo.pixels.straightRGBA()
      var psnrs: [Double] = []
      var sizes: [Int] = []
      for quality in [30, 90] {
        let encoded = try coder.encode(photo, as: .avif, options: EncodeOptions(quality: quality))
        sizes.append(encoded.count)
        psnrs.append(
          AVIFFixtures.psnr(try coder.decode(encoded, options: DecodeOptions()).pixels.straightRGBA(), source))
      }
      #expect(sizes[0] < sizes[1])
      #expect(psnrs[0] < psnrs[1])
      #expect(psnrs[1] > 35, "PSNR \(psnrs[1]) at quality 90")
    }

    @Test func speedIsAnOptionAndLosslessIsExact() throws {
      let photo = try Self.photo()
      var options = EncodeOptions(lossless: true)
      options.speed = 10
      let encoded = try coder.encode(photo, as: .avif, options: options)
      let decoded = try coder.decode(encoded, options: DecodeOptions())
      #expect(decoded.pixels.straightRGBA() == photo.pixels.straightRGBA())
      #expect(AVIFEncoder.quantizer(quality: 100) == 0)
      #expect(AVIFEncoder.quantizer(quality: 0) == 63)
      #expect(AVIFEncoder.quantizer(quality: 50) == 32)
    }

    @Test func opaqueImagesHaveNoAlphaPlane() throws {
      let opaque = try coder.decode(try AVIFFixtures.data("d8_444.avif"), options: DecodeOptions())
      let encoded = try coder.encode(opaque, as: .avif, options: EncodeOptions())
      #expect(try coder.decode(encoded, options: DecodeOptions()).pixels.isOpaque)
    }

    @Test func sequencesKeepTheirFramesAndDurations() throws {
      let sequence = try coder.decode(try AVIFFixtures.data("sequence.avifs"), options: DecodeOptions())
      let encoded = try coder.encode(sequence, as: .avif, options: EncodeOptions(quality: 70))
      let info = try coder.info(of: encoded)
      #expect(info.frameCount == 5)
      #expect(info.frameDurations.map(\.wholeMilliseconds) == [50, 200, 100, 100, 150])
      var first = EncodeOptions()
      first.firstFrameOnly = true
      #expect(try coder.info(of: try coder.encode(sequence, as: .avif, options: first)).frameCount == 1)
    }

    @Test func aColourProfileIsEmbedded() throws {
      let tagged = try coder.decode(try AVIFFixtures.data("icc.avif"), options: DecodeOptions())
      let encoded = try coder.encode(tagged, as: .avif, options: EncodeOptions())
      #expect(try coder.decode(encoded, options: DecodeOptions()).colorProfile == tagged.colorProfile)
    }
  }
#endif
