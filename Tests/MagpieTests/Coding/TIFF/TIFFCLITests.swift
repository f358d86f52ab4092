#if canImport(MagpieTIFF)
  import Foundation
  import Magpie
  import Testing

  /// `magpie info` and `magpie convert` on TIFF (the CLI registers
  /// TIFFCoder through OptionalCoders).
  @Suite struct TIFFCLITests {
    private func fixture(_ name: String) -> String {
      TestPaths.fixtures.appendingPathComponent("tiff/\(name)").path
    }

    @Test func infoCountsThePagesAndTurnsTheSize() async throws {
      for (name, width, height, frames) in [("pages.tif", 36, 20, 3), ("orientation6.tif", 20, 36, 1)] {
        let result = try await CLIRunner.run(["info", fixture(name)])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(
          try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["format"] as? String == "tiff")
        #expect(json["width"] as? Int == width, "\(name)")
        #expect(json["height"] as? Int == height, "\(name)")
        #expect(json["frames"] as? Int == frames, "\(name)")
      }
    }

    /// libtiff is opened on the first TIFF, not at start-up (see
    /// LazyCoderLibraryTests for the run that meets none).
    @Test func aTIFFRunOpensLibtiffAndNoOtherOptionalLibrary() async throws {
      let libraries = try await LazyCoderLibraryTests.openedLibraries(["info", fixture("rgb.tif")])
      #expect(LazyCoderLibraryTests.opens(libraries, "libtiff.so"))
      for other in ["libavif.so", "libheif.so", "libjxl.so"] {
        #expect(!LazyCoderLibraryTests.opens(libraries, other), "\(other) was opened")
      }
    }

    @Test func convertWritesAPNGOfTheReferencePixels() async throws {
      let folder = try TemporaryDirectory()
      let out = folder.path("rgba.png")
      let result = try await CLIRunner.run(["convert", fixture("rgba-unassociated.tif"), out])
      #expect(result.status == 0, "\(result.stderr)")
      let decoded = try PNGCoder().decode(Data(contentsOf: URL(fileURLWithPath: out)), options: DecodeOptions())
      #expect(decoded.pixels == (try ReferenceFixture.frame("tiff", "rgba-unassociated.tif")))
    }
  }
#endif
