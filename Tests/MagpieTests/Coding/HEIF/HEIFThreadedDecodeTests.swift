#if canImport(MagpieHEIF)
  import Foundation
  import Magpie
  @testable import MagpieHEIF
  import Testing

  /// Magpie's HEVC plugin (`heif_de265.c`: libde265 splitting a picture
  /// over worker threads) decodes photo-sized HEIC files to exactly the
  /// pixels heif-convert gets from libheif's own single-threaded plugin,
  /// on any number of threads. The files are x265's (through heif-enc),
  /// which writes wavefront rows, the rows libde265 decodes side by side.
  @Suite struct HEIFThreadedDecodeTests {
    @Test func theThreadedPluginIsRegistered() {
      #expect(HEIFLibrary.isInitialized)
      #expect(HEIFLibrary.decodesHEVCOnThreads)
    }

    /// An even-sized photo (one coded picture) and one a pixel short each
    /// way (heif-enc 1.15 stores it as a one-tile grid cropped by libheif).
    @Test(arguments: [0, 1]) func photosDecodeToHeifConvertsPixelsOnAnyThreadCount(trim: Int) throws {
      let photo = try PNGCoder().decode(try TestPaths.fixture("photos/birds.png"), options: DecodeOptions())
      let width = photo.pixelSize.width - trim, height = photo.pixelSize.height - trim
      let rgba = photo.pixels.straightRGBA()
      var cropped: [UInt8] = []
      for y in 0..<height {
        cropped += rgba[(y * photo.pixelSize.width * 4)..<((y * photo.pixelSize.width + width) * 4)]
      }
      let png = try PNGCoder().encode(
        Image(pixels: PixelBuffer(width: width, height: height, straightRGBA: cropped), format: .png), as: .png,
        options: EncodeOptions())
      let heic = try ReferenceTool.run(
        "heif-enc", ["-q", "60", "IN", "-o", "OUT"], input: png, inputName: "in.png", outputName: "out.heic"
      ).output!
      let reference = try ReferenceTool.decodeToPNG("heif-convert", heic, inputName: "in.heic")
      #expect(reference.pixelSize == PixelSize(width: width, height: height))
      for threads in [1, 2, 3] {
        let pixels = try HEIFFile.with(heic) { file throws(MagpieError) -> PixelBuffer in
          // Tiles on this thread, where the plugin reads its thread count.
          file.setTileThreads(0)
          return try file.primary.decodeRGBA8(pictureThreads: threads)
        }
        #expect(pixels.size == reference.pixelSize)
        #expect(ReferenceFixture.maxDifference(pixels, reference.pixels) == 0, "\(threads) threads")
      }
    }
  }
#endif
