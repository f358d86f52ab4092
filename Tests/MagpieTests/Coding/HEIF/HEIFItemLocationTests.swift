#if canImport(MagpieHEIF)
  import Foundation
  import Magpie
  import Testing

  @testable import MagpieHEIF

  /// Item data `iloc` places past the end of the file is refused before
  /// libheif sizes a buffer for it (HEIFItemLocations).
  @Suite struct HEIFItemLocationTests {
    /// The fuzzer's file: 3.7 KB, a 64x48 primary with alpha whose items
    /// declare extents of up to hundreds of megabytes; libheif 1.15 and
    /// heif-convert allocated 2.1 GB for it. It fails fast now, naming the
    /// item and the bytes it claims.
    static let fuzzed = "fuzz/heif/oom-7fe33e53ea41f548e498e3dd52578aa4a187737c"

    @Test func theFuzzedExtentsAreRefused() throws {
      let data = try TestPaths.fixture(Self.fuzzed)
      let overrun = try #require(HEIFItemLocations(data).overrun)
      #expect(overrun.item == 1 && overrun.start == 814 && overrun.length == 93_061_122)
      #expect(overrun.available == UInt64(data.count))
      #expect {
        try HEIFCoder().decode(data, options: DecodeOptions())
      } throws: { error in
        let error = error as? MagpieError
        return error?.code == .truncatedData && error?.reason.contains("item 1 declares 93061122 bytes") == true
      }
    }

    /// The encoder's files (data in the file and in `idat`) have every
    /// extent inside its data, and decode.
    @Test(arguments: ["8bit.heic", "alpha.heic", "thumb.heic"])
    func encodersFilesPass(name: String) throws {
      let data = try ReferenceFixture.data("heif", name)
      #expect(HEIFItemLocations(data).overrun == nil)
      _ = try HEIFCoder().decode(data, options: DecodeOptions())
    }

    /// One byte cut from the end of a real file puts its last extent past
    /// the end: refused as truncated, not handed to libheif.
    @Test func aCutFileIsRefusedAsTruncated() throws {
      let data = try ReferenceFixture.data("heif", "8bit.heic")
      let cut = data.prefix(data.count - 1)
      #expect(HEIFItemLocations(Data(cut)).overrun != nil)
      #expect {
        try HEIFCoder().decode(Data(cut), options: DecodeOptions())
      } throws: { error in
        (error as? MagpieError)?.code == .truncatedData
      }
    }
  }
#endif
