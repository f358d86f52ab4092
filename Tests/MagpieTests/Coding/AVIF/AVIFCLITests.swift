#if canImport(MagpieAVIF)
  import Foundation
  import Magpie
  import MagpieAVIF
  import Testing

  /// The `magpie` command has the AVIF coder registered in the shared
  /// registry (OptionalCoders): `info` and `convert` read and write AVIF.
  @Suite struct AVIFCLITests {
    private func json(_ text: String) throws -> [String: Any] {
      try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func infoReadsASequence() async throws {
      let path = TestPaths.fixtures.appendingPathComponent("avif/sequence.avifs").path
      let result = try await CLIRunner.run(["info", path])
      #expect(result.status == 0, "\(result.stderr)")
      let info = try json(result.stdout)
      #expect(info["format"] as? String == "avif")
      #expect(info["width"] as? Int == 64)
      #expect(info["frames"] as? Int == 5)
      #expect(info["delays_ms"] as? [Int] == [50, 200, 100, 100, 150])
    }

    @Test func infoReportsTheTurnedSize() async throws {
      let path = TestPaths.fixtures.appendingPathComponent("avif/irot1.avif").path
      let info = try json(try await CLIRunner.run(["info", path]).stdout)
      #expect(info["width"] as? Int == 48)
      #expect(info["height"] as? Int == 64)
      #expect(info["orientation"] as? Int == 8)
    }

    @Test func convertsAVIFToPNGExactly() async throws {
      let dir = try TemporaryDirectory()
      let input = TestPaths.fixtures.appendingPathComponent("avif/alpha_d8_444.avif").path
      let result = try await CLIRunner.run(["convert", input, dir.path("out.png")])
      #expect(result.status == 0, "\(result.stderr)")
      let png = try Data(contentsOf: URL(fileURLWithPath: dir.path("out.png")))
      let pixels = try PNGCoder().decode(png, options: DecodeOptions()).pixels
      #expect(pixels.straightRGBA() == (try AVIFFixtures.reference("alpha_d8_444.avif")[0]))
    }

    @Test func convertsAPhotoToAVIFThumbnail() async throws {
      let dir = try TemporaryDirectory()
      let output = dir.path("thumb.avif")
      let result = try await CLIRunner.run([
        "convert", TestPaths.photo("birds").path, output, "--process", "downsample(64x64)", "--quality", "60",
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let record = try json(result.stdout)
      #expect(record["format"] as? String == "avif")
      let written = try Data(contentsOf: URL(fileURLWithPath: output))
      #expect(ImageFormat.sniff(written) == .avif)
      #expect(try AVIFCoder().info(of: written).size == PixelSize(width: 64, height: 43))
    }
  }
#endif
