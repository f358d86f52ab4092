#if canImport(MagpieHEIF)
  import Foundation
  import Magpie
  import CHEIFLoader
  @testable import MagpieHEIF
  import Testing

  /// Magpie's HEVC plugins (`heif_avcodec.c`: FFmpeg's decoder with slice
  /// threads; `heif_de265.c`: libde265 with worker threads) decode
  /// photo-sized HEIC files to exactly the pixels heif-convert gets from
  /// libheif's own single-threaded plugin, on any number of threads. The
  /// files are x265's (through heif-enc), which writes wavefront rows, the
  /// rows both decode side by side.
  @Suite struct HEIFThreadedDecodeTests {
    @Test func bothPluginsAreRegisteredAndTheirLibrariesOpen() {
      #expect(HEIFLibrary.isInitialized)
      #expect(HEIFLibrary.registeredHEVCPlugins)
      for decoder in HEVCDecoder.allCases { #expect(decoder.isAvailable, "\(decoder)") }
    }

    /// The coder decodes with the decoder it is given, to the same pixels.
    @Test func theCoderDecodesWithTheDecoderItIsGiven() throws {
      let data = try ReferenceFixture.data("heif", "10bit.heic")
      _ = mp_heif_hevc_take_last_backend()
      let reference = try HEIFCoder(hevcDecoder: .libheif).decode(data, options: DecodeOptions()).pixels
      #expect(mp_heif_hevc_take_last_backend() == mp_heif_hevc_any)
      for decoder in [HEVCDecoder.fastest, .libavcodec, .libde265] {
        let pixels = try HEIFCoder(hevcDecoder: decoder).decode(data, options: DecodeOptions()).pixels
        let used = decoder == .fastest ? mp_heif_hevc_avcodec : decoder.backend
        #expect(mp_heif_hevc_take_last_backend() == used, "\(decoder)")
        #expect(ReferenceFixture.maxDifference(pixels, reference) == 0, "\(decoder)")
      }
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
      for decoder in [HEVCDecoder.libavcodec, .libde265, .libheif] {
        for threads in [1, 2, 3] {
          _ = mp_heif_hevc_take_last_backend()
          let pixels = try HEIFFile.with(heic) { file throws(MagpieError) -> PixelBuffer in
            // Tiles on this thread, where the plugins read their settings.
            file.setTileThreads(0)
            return try file.primary.decodeRGBA8(pictureThreads: threads, decoder: decoder)
          }
          // libheif's own plugin records nothing.
          let used = decoder == .libheif ? mp_heif_hevc_any : decoder.backend
          #expect(mp_heif_hevc_take_last_backend() == used, "\(decoder)")
          #expect(pixels.size == reference.pixelSize)
          #expect(ReferenceFixture.maxDifference(pixels, reference.pixels) == 0, "\(decoder), \(threads) threads")
        }
      }
    }
  }
#endif
