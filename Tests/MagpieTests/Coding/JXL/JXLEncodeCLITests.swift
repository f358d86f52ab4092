#if canImport(MagpieJXL)
  import Foundation
  import Magpie
  import MagpieJXL
  import Testing

  /// `magpie convert` writes JPEG XL, named by the `.jxl` extension or by
  /// `--format`, an animated GIF's frames and delays kept; djxl reads what
  /// it wrote.
  @Suite struct JXLEncodeCLITests {
    @Test func convertWritesThePNGAsJXL() async throws {
      let folder = try TemporaryDirectory()
      let out = folder.path("y.jxl")
      let result = try await CLIRunner.run(["convert", TestPaths.photo("birds").path, out, "--quality", "80"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("\"format\":\"jxl\""), "\(result.stdout)")
      let written = try Data(contentsOf: URL(fileURLWithPath: out))
      #expect(ImageFormat.sniff(written) == .jxl)
      let back = try ReferenceTool.decodeToPNG("djxl", written, inputName: "in.jxl")
      #expect(back.pixelSize == PixelSize(width: 768, height: 512))
    }

    @Test func convertKeepsAGIFAnimation() async throws {
      let folder = try TemporaryDirectory()
      let out = folder.path("anim.jxl")
      let gif = TestPaths.fixtures.appendingPathComponent("alpha/anim.gif").path
      let result = try await CLIRunner.run(["convert", gif, out])
      #expect(result.status == 0, "\(result.stderr)")
      let source = try GIFCoder().info(of: Data(contentsOf: URL(fileURLWithPath: gif)))
      let info = try JXLCoder().info(of: Data(contentsOf: URL(fileURLWithPath: out)))
      #expect(info.frameCount == source.frameCount)
      #expect(info.frameDurations == source.frameDurations)
    }

    @Test func formatOptionNamesJXL() async throws {
      let folder = try TemporaryDirectory()
      let out = folder.path("noextension")
      let result = try await CLIRunner.run(["convert", TestPaths.photo("door").path, out, "--format", "jxl"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(ImageFormat.sniff(try Data(contentsOf: URL(fileURLWithPath: out))) == .jxl)
    }
  }
#endif
