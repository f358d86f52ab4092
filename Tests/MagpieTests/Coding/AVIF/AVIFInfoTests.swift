#if canImport(MagpieAVIF)
  import Foundation
  import Magpie
  import MagpieAVIF
  import Testing

  /// `info` reads the container only: sizes after clap and orientation,
  /// frames and durations, without decoding AV1.
  @Suite struct AVIFInfoTests {
    let coder = AVIFCoder()

    @Test(arguments: AVIFFixtures.manifest.keys.sorted())
    func infoAgreesWithTheManifest(name: String) throws {
      let entry = try #require(AVIFFixtures.manifest[name])
      let data = try AVIFFixtures.data(name)
      let info = try coder.info(of: data)
      #expect(info.format == .avif)
      #expect(info.size == PixelSize(width: entry.width, height: entry.height))
      #expect(info.frameCount == entry.frames)
      #expect(info.frameDurations.map(\.wholeMilliseconds) == entry.delays_ms)
      #expect(info.orientation.rawValue == entry.orientation)
      #expect(info.loopCount == 0)
      #expect(info.byteCount == data.count)
    }

    @Test func infoDoesNotDecodeTheAV1Payload() throws {
      // Zero the last half of the file (the mdat with the AV1 data avifenc
      // writes after the meta box): the container still parses.
      var bytes = [UInt8](try AVIFFixtures.data("d8_444.avif"))
      let mdat = try #require(AVIFHostileInputTests.offset(of: "mdat", in: bytes))
      for i in (mdat + 12)..<bytes.count { bytes[i] = 0 }
      let info = try coder.info(of: Data(bytes))
      #expect(info.size == PixelSize(width: 64, height: 48))
      #expect(throws: MagpieError.self) { try coder.decode(Data(bytes), options: DecodeOptions()) }
    }
  }
#endif
