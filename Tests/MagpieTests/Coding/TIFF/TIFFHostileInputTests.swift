#if canImport(MagpieTIFF)
  import Foundation
  import MagpieFuzzHarnesses
  import MagpieTIFF
  import Testing

  @testable import Magpie

  /// Damaged and hostile TIFF input fails with a typed error, never a
  /// crash, and declarations over the limits are refused before pixel
  /// memory is taken.
  @Suite struct TIFFHostileInputTests {
    private let codes: Set<MagpieError.Code> = [.truncatedData, .corruptData, .unsupportedFormat]

    private func data(_ name: String) throws -> Data { try ReferenceFixture.data("tiff", name) }

    /// 1x1000000 in one-row strips, in a file of about 200 bytes: refused
    /// from the strip count, at once, before libtiff reads any offset.
    @Test func aMillionStripsAreRefusedFast() throws {
      let data = try data("hostile-million-strips.tif")
      #expect(data.count < 300)
      let start = ContinuousClock.now
      #expect {
        try TIFFCoder().decode(data, options: DecodeOptions())
      } throws: { error in
        let error = error as? MagpieError
        return error?.code == .corruptData && error?.reason.contains("declares 1000000 strips") == true
      }
      #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test func aHugeDeclarationIsRefusedByThePixelLimit() throws {
      #expect {
        try TIFFCoder().decode(data("hostile-huge.tif"), options: DecodeOptions())
      } throws: { error in
        let error = error as? MagpieError
        return error?.code == .imageTooLarge && error?.reason.contains("100000") == true
      }
    }

    @Test(arguments: ["rgb-lzw.tif", "rgb-tiles.tif", "ycbcr-jpeg.tif", "pages.tif", "rgb.tif"])
    func everyTruncationFailsWithATypedErrorOrDecodesPartly(name: String) throws {
      let data = try data(name)
      for length in stride(from: 0, to: data.count, by: max(1, data.count / Sanitizer.iterations(60))) {
        var strict = DecodeOptions()
        strict.allowsPartialImage = false
        do {
          _ = try TIFFCoder().decode(data.prefix(length), options: strict)
        } catch {
          #expect(codes.contains(error.code), "\(length) bytes: \(error)")
        }
        do {
          _ = try TIFFCoder().decode(data.prefix(length), options: DecodeOptions())
        } catch {
          #expect(codes.contains(error.code), "\(length) bytes: \(error)")
        }
      }
    }

    /// rgb.tif with its last strip's offset past the end of the file: the
    /// bands before it come back (three five-row strips a band: rows 0-14),
    /// flagged partial, the rest transparent; or the read error is raised
    /// when partial images are not wanted.
    @Test func aStripPastTheEndEndsTheImage() throws {
      var bytes = [UInt8](try data("rgb.tif"))
      let offsets = try #require(Self.arrayOffset(of: 273, in: bytes))
      // Four strips of five rows (20 rows): the fourth holds rows 15-19.
      for b in 0..<4 { bytes[offsets + 12 + b] = 0xF0 }
      let partial = try TIFFCoder().decode(Data(bytes), options: DecodeOptions())
      #expect(partial.isPartial)
      let reference = try ReferenceFixture.frame("tiff", "rgb.tif")
      for y in 0..<20 {
        #expect(partial.pixels[3, y] == (y < 15 ? reference[3, y] : SIMD4(0, 0, 0, 0)), "row \(y)")
      }
      var strict = DecodeOptions()
      strict.allowsPartialImage = false
      #expect { try TIFFCoder().decode(Data(bytes), options: strict) } throws: {
        ($0 as? MagpieError)?.code == .truncatedData
      }
    }

    /// Three billion rows of one pixel with no pixel limit: more rows than
    /// TIFFRGBAImage's int32_t row offset holds, refused instead of trapping.
    @Test func moreRowsThanLibtiffCountsAreRefused() throws {
      var bytes = [UInt8](try data("hostile-huge.tif"))
      // LZW (5): libtiff cuts a huge uncompressed strip into virtual
      // strips, which the strip-count check would refuse first.
      for (tag, value) in [(256, 1), (257, 3_000_000_000), (278, 0xFFFF_FFFF), (259, 5)] {
        let entry = try #require(Self.entryOffset(of: UInt16(tag), in: bytes))
        for b in 0..<4 { bytes[entry + 8 + b] = UInt8(truncatingIfNeeded: value >> (8 * b)) }
      }
      #expect {
        try TIFFCoder().decode(Data(bytes), options: DecodeOptions(maxPixelCount: .max))
      } throws: { error in
        let error = error as? MagpieError
        return error?.code == .imageTooLarge && error?.reason.contains("3000000000 rows") == true
      }
    }

    @Test func tooManyPagesAreRefusedUnlessOnlyTheFirstIsWanted() throws {
      var options = DecodeOptions()
      options.maxFrameCount = 2
      #expect { try TIFFCoder().decode(data("pages.tif"), options: options) } throws: {
        ($0 as? MagpieError)?.code == .limitExceeded
      }
      options.firstFrameOnly = true
      #expect(try TIFFCoder().decode(data("pages.tif"), options: options).frames.count == 1)
    }

    /// hostile-reduced-run.tif: a page, 70 reduced directories, a page.
    /// The walk gives up in the run (a pyramid has far fewer levels), so
    /// reduced directories cannot make it read without bound.
    @Test func aLongRunOfReducedDirectoriesEndsTheWalk() throws {
      let data = try data("hostile-reduced-run.tif")
      #expect(try TIFFCoder().info(of: data).frameCount == 1)
      #expect(try TIFFCoder().decode(data, options: DecodeOptions()).frames.count == 1)
      let reduced = try TIFFCoder().decode(data, options: DecodeOptions(targetSize: PixelSize(width: 1, height: 1)))
      #expect(reduced.pixelSize == PixelSize(width: 1, height: 1))
    }

    @Test func allPagesTogetherAreBoundedByTheByteLimit() throws {
      // Three 36x20 pages need 8640 bytes.
      let options = DecodeOptions(maxTotalByteCount: 8639)
      #expect { try TIFFCoder().decode(data("pages.tif"), options: options) } throws: {
        ($0 as? MagpieError)?.code == .imageTooLarge
      }
      #expect(
        try TIFFCoder().decode(data("pages.tif"), options: DecodeOptions(maxTotalByteCount: 8640)).frames.count == 3)
    }

    @Test func aPassedDeadlineStopsTheDecode() throws {
      var options = DecodeOptions()
      options.decodeTimeLimit = .zero
      #expect { try TIFFCoder().decode(data("rgb.tif"), options: options) } throws: { error in
        let error = error as? MagpieError
        return error?.code == .limitExceeded && error?.reason.contains("exceeds decodeTimeLimit 0.000 s") == true
      }
    }

    /// One second a clock reading (the start, the page, then each band of
    /// rows), 2.5 s allowed: rgb.tif stops between its two bands of rows.
    @Test func theDeadlineIsCheckedBetweenBandsOfRows() throws {
      let virtual = VirtualDecodeClock(step: .seconds(1))
      var options = DecodeOptions()
      options.decodeTimeLimit = .milliseconds(2500)
      options.decodeClock = virtual.clock
      #expect { try TIFFCoder().decode(data("rgb.tif"), options: options) } throws: { error in
        let error = error as? MagpieError
        return error?.code == .limitExceeded && error?.reason.hasSuffix("(stopped at tiff directory 0 row 15)") == true
      }
    }

    /// Flipped bytes anywhere (directory, tags, strips, codec data) in the
    /// fuzz harness's option variants: a typed error or an image, never a
    /// crash.
    @Test(arguments: ["rgb-lzw.tif", "rgb-tiles.tif", "ycbcr-jpeg.tif", "palette4.tif", "pyramid.tif"])
    func corruptBytesNeverCrash(name: String) throws {
      let data = try data(name)
      var state: UInt64 = 0x9E37_79B9_7F4A_7C15
      for _ in 0..<Sanitizer.iterations(60) {
        var bytes = [UInt8](data)
        for _ in 0..<8 {
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          bytes[Int(state >> 33) % bytes.count] ^= UInt8(truncatingIfNeeded: state >> 20) | 1
        }
        let corrupt = Data(bytes)
        let options = FuzzDecoding.options(for: corrupt)
        do { _ = try TIFFCoder().decode(corrupt, options: options) } catch {
          #expect(codes.union([.imageTooLarge, .limitExceeded]).contains(error.code), "\(error)")
        }
      }
    }

    @Test func notATIFFIsATypedError() throws {
      #expect { try TIFFCoder().decode(Data("II*\0garbage".utf8), options: DecodeOptions()) } throws: {
        ($0 as? MagpieError).map { codes.contains($0.code) } == true
      }
      #expect(throws: MagpieError.self) { try TIFFCoder().info(of: Data([0x49, 0x49, 0x2A, 0x00])) }
    }

    /// Where the value array of `tag` in the first directory of a
    /// little-endian TIFF starts.
    static func arrayOffset(of tag: UInt16, in bytes: [UInt8]) -> Int? {
      entryOffset(of: tag, in: bytes).map { u32(bytes, $0 + 8) }
    }

    /// Where the 12-byte entry of `tag` in the first directory of a
    /// little-endian TIFF is.
    static func entryOffset(of tag: UInt16, in bytes: [UInt8]) -> Int? {
      let ifd = u32(bytes, 4)
      for entry in 0..<u16(bytes, ifd) where u16(bytes, ifd + 2 + entry * 12) == Int(tag) {
        return ifd + 2 + entry * 12
      }
      return nil
    }

    private static func u16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    private static func u32(_ bytes: [UInt8], _ at: Int) -> Int { u16(bytes, at) | u16(bytes, at + 2) << 16 }
  }
#endif
