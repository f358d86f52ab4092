#if canImport(MagpieHEIF)
  import Foundation
  import Magpie
  import Testing

  /// `magpie info` and `magpie convert` on HEIC (the CLI registers
  /// HEIFCoder through OptionalCoders).
  @Suite struct HEIFCLITests {
    private func fixture(_ name: String) -> String {
      TestPaths.fixtures.appendingPathComponent("heif/\(name)").path
    }

    @Test func infoReportsTheUprightSize() async throws {
      let result = try await CLIRunner.run(["info", fixture("rotated.heic")])
      #expect(result.status == 0, "\(result.stderr)")
      let json = try #require(
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      #expect(json["format"] as? String == "heic")
      #expect(json["width"] as? Int == 48)
      #expect(json["height"] as? Int == 64)
      #expect(json["frames"] as? Int == 1)
    }

    @Test func convertWritesAPNGOfTheReferencePixels() async throws {
      let folder = try TemporaryDirectory()
      let out = folder.path("alpha.png")
      let result = try await CLIRunner.run(["convert", fixture("alpha.heic"), out])
      #expect(result.status == 0, "\(result.stderr)")
      let decoded = try PNGCoder().decode(Data(contentsOf: URL(fileURLWithPath: out)), options: DecodeOptions())
      #expect(decoded.pixels == (try ReferenceFixture.frame("heif", "alpha.heic")))
    }

    @Test func convertThumbnailsThroughDownsample() async throws {
      let folder = try TemporaryDirectory()
      let out = folder.path("thumb.webp")
      let result = try await CLIRunner.run([
        "convert", fixture("thumb.heic"), out, "--process", "downsample(64x64)",
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let info = try WebPCoder().info(of: Data(contentsOf: URL(fileURLWithPath: out)))
      #expect(info.size == PixelSize(width: 64, height: 48))
    }

    #if canImport(MagpieAVIF)
      /// The example: a phone's HEIC to an AVIF thumbnail.
      @Test func convertsAHEICToAnAVIFThumbnail() async throws {
        let folder = try TemporaryDirectory()
        let out = folder.path("thumb.avif")
        let result = try await CLIRunner.run([
          "convert", fixture("thumb.heic"), out, "--process", "downsample(32x32)",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(ImageFormat.sniff(written) == .avif)
        let info = try await CLIRunner.run(["info", out])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        #expect(json["width"] as? Int == 32)
        #expect(json["height"] as? Int == 24)
      }
    #endif
  }
#endif
