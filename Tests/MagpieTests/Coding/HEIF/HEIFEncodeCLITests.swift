#if canImport(MagpieHEIF)
  import Foundation
  import Magpie
  import Testing

  /// `magpie convert` writes HEIC, named by the output's extension (`.heic`
  /// or `.heif`) or by `--format`; heif-convert reads what it wrote.
  @Suite struct HEIFEncodeCLITests {
    @Test(arguments: ["y.heic", "y.heif"])
    func convertWritesThePNGAsHEIC(_ name: String) async throws {
      let folder = try TemporaryDirectory()
      let out = folder.path(name)
      let result = try await CLIRunner.run(["convert", TestPaths.photo("birds").path, out, "--quality", "80"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("\"format\":\"heic\""), "\(result.stdout)")
      let written = try Data(contentsOf: URL(fileURLWithPath: out))
      #expect(ImageFormat.sniff(written) == .heic)
      let back = try ReferenceTool.decodeToPNG("heif-convert", written, inputName: "in.heic")
      #expect(back.pixelSize == PixelSize(width: 768, height: 512))
    }

    @Test func formatOptionNamesHEIC() async throws {
      let folder = try TemporaryDirectory()
      let out = folder.path("noextension")
      let result = try await CLIRunner.run(["convert", TestPaths.photo("door").path, out, "--format", "heic"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(ImageFormat.sniff(try Data(contentsOf: URL(fileURLWithPath: out))) == .heic)
    }
  }
#endif
