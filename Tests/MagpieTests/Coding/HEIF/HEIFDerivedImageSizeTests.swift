#if canImport(MagpieHEIF)
  import Foundation
  import Magpie
  import Testing

  @testable import MagpieHEIF

  /// Grids and overlays whose descriptors declare a canvas over the pixel
  /// limit are refused before libheif allocates it (HEIFDerivedImageSizes).
  @Suite struct HEIFDerivedImageSizeTests {
    /// The fuzzer's file: a 64x48 grid (descriptor in `idat`) whose alpha
    /// is a grid over an overlay (descriptor in the file) declaring a
    /// 28009x24934 canvas; libheif 1.15 and heif-convert allocated 700 MB
    /// for it. It fails fast now, with the overlay named.
    static let fuzzed = "fuzz/heif/oom-2199bb8c67b9c4a0d19351491a5b858c32e206f7"

    @Test func theFuzzedOverlayIsRefused() throws {
      let data = try TestPaths.fixture(Self.fuzzed)
      let sizes = HEIFDerivedImageSizes(data).sizes
      #expect(sizes[2]?.type == "grid" && sizes[2]?.width == 64 && sizes[2]?.height == 48)
      #expect(sizes[4]?.type == "grid" && sizes[4]?.width == 64 && sizes[4]?.height == 48)
      #expect(sizes[3]?.type == "iovl" && sizes[3]?.width == 28009 && sizes[3]?.height == 24934)
      #expect {
        try HEIFCoder().decode(data, options: DecodeOptions())
      } throws: { error in
        let error = error as? MagpieError
        return error?.code == .imageTooLarge && error?.reason.contains("item 3 (iovl)") == true
      }
    }

    /// A grid's own canvas, in `idat`, counts the same way.
    @Test func aHugeGridIsRefused() throws {
      var data = try TestPaths.fixture(Self.fuzzed)
      let idat = try #require(data.range(of: Data("idat".utf8)))
      // Item 2's descriptor: version, flags, rows - 1, columns - 1, then
      // 16-bit width and height.
      for i in 0..<4 { data[idat.upperBound + 4 + i] = 0xFF }
      let sizes = HEIFDerivedImageSizes(data).sizes
      #expect(sizes[2]?.width == 0xFFFF && sizes[2]?.height == 0xFFFF)
      #expect(throws: MagpieError.self) { try HEIFDerivedImageSizes(data).check(maxPixelCount: 100_000_000) }
      #expect(throws: Never.self) { try HEIFDerivedImageSizes(data).check(maxPixelCount: 0xFFFF * 0xFFFF) }
    }

    /// libheif's encoder writes small images as one-tile grids (the image,
    /// its alpha, a stored thumbnail): read at the sizes their `ispe`
    /// boxes give, under the limit, and decoded.
    @Test(arguments: [
      ("8bit.heic", ["64x48"]), ("alpha.heic", ["256x4", "256x4"]), ("thumb.heic", ["32x24"]),
    ])
    func encodersGridsPass(name: String, grids: [String]) throws {
      let data = try ReferenceFixture.data("heif", name)
      let sizes = HEIFDerivedImageSizes(data).sizes.values
      #expect(sizes.allSatisfy { $0.type == "grid" })
      #expect(sizes.map { "\($0.width)x\($0.height)" }.sorted() == grids)
      _ = try HEIFCoder().decode(data, options: DecodeOptions())
    }
  }
#endif
