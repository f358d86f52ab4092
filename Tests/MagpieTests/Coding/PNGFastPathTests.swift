import CMagpieCodecs
import Foundation
import Testing

@testable import Magpie

/// The fast path (libdeflate + SIMD unfiltering, magpie_png_fast.c) against
/// two independent references: libpng alone (the same reader with the fast
/// path off) and pixels computed from known samples (PNGStreamBuilder).
/// Every eligible image must take the fast path and come out identical;
/// every stream it is unsure of must end exactly as libpng ends it.
@Suite struct PNGFastPathTests {
  /// One decode through ``PNGReader``.
  struct Decoded {
    var header: PNGHeader?
    var result: Result<PixelBuffer, MagpieError>
    var usedFastPath: Bool
  }

  static func decode(_ data: Data, fastPath: Bool) -> Decoded {
    data.withUnsafeBytes { raw in
      var header: PNGHeader?
      var used = false
      let result = Result { () throws(MagpieError) -> PixelBuffer in
        let reader = try PNGReader(raw, usesFastPath: fastPath)
        header = try reader.readHeader()
        defer { used = reader.usedFastPath }
        return try reader.readPixels()
      }
      return Decoded(header: header, result: result, usedFastPath: used)
    }
  }

  /// Whether the fast path is meant to take an image with this header.
  static func isEligible(_ header: PNGHeader) -> Bool {
    header.bitDepth == 8 && !header.isInterlaced && [0, 2, 3, 4, 6].contains(header.colorType)
      && !(header.hasTransparency && header.colorType != 3)
  }

  /// Decodes `data` with and without the fast path and records an issue
  /// unless both give the same pixels and opacity, or the same error.
  /// Returns the fast-path decode.
  @discardableResult
  static func expectSameOutcome(
    _ data: Data, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Decoded {
    let fast = decode(data, fastPath: true)
    let libpng = decode(data, fastPath: false)
    #expect(!libpng.usedFastPath, sourceLocation: sourceLocation)
    switch (fast.result, libpng.result) {
    case (.success(let a), .success(let b)):
      #expect(a == b, "\(label): the pixels differ", sourceLocation: sourceLocation)
      #expect(a.isOpaque == b.isOpaque, "\(label): opacity differs", sourceLocation: sourceLocation)
    case (.failure(let a), .failure(let b)):
      #expect(a.code == b.code && a.reason == b.reason, "\(label): \(a) vs \(b)", sourceLocation: sourceLocation)
    default:
      Issue.record("\(label): fast path \(fast.result), libpng \(libpng.result)", sourceLocation: sourceLocation)
    }
    return fast
  }

  /// Decodes a builder's stream; expects the fast path, the builder's own
  /// pixels, and libpng's.
  static func expectFastAndExact(_ builder: PNGStreamBuilder, _ label: String) {
    let fast = expectSameOutcome(builder.png(), label)
    #expect(fast.usedFastPath, "\(label) did not take the fast path")
    guard case .success(let pixels) = fast.result else { return }
    let expected = builder.expectedPixels()
    let difference = maxDifference(pixels.straightRGBA(), expected)
    #expect(difference == 0, "\(label): pixels differ from the samples by up to \(difference)")
    let opaque = stride(from: 3, to: expected.count, by: 4).allSatisfy { expected[$0] == 255 }
    #expect(pixels.isOpaque == opaque, "\(label): opacity")
  }

  /// The largest per-channel difference of two pixel arrays; 256 when
  /// their sizes differ.
  static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    a.count == b.count ? GIFWebPFixtureTests.maxDifference(a, b) : 256
  }

  @Test(.enabled(if: TestPaths.pngSuite != nil, "\(TestPaths.missing("pngsuite"))"))  // PngSuite conformance
  func pngSuiteDecodesAlikeBothWays() throws {
    var eligible = 0
    for name in PNGSuiteTests.validNames {
      let decoded = Self.expectSameOutcome(try PNGSuiteTests.load(name), name)
      let header = try #require(decoded.header, "\(name) has no header")
      #expect(decoded.usedFastPath == Self.isEligible(header), "\(name): fast path \(decoded.usedFastPath)")
      eligible += Self.isEligible(header) ? 1 : 0
    }
    // basn/tbbn/f0x/z0x/... 8-bit files of the five colour types.
    #expect(eligible >= 50, "only \(eligible) PngSuite files take the fast path")
    for name in PNGSuiteTests.corruptNames {
      #expect(Self.expectSameOutcome(try PNGSuiteTests.load(name), name).usedFastPath == false)
    }
  }

  @Test(arguments: [0, 2, 3, 4, 6])
  func generatedImagesMatchTheirSamples(colorType: Int) {
    var seed: UInt64 = 1
    for width in [1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 21, 31, 33, 64, 101] {
      for height in [1, 2, 5] {
        seed += 1
        var builder = PNGStreamBuilder(width: width, height: height, colorType: colorType, seed: seed)
        // Split the zlib stream oddly, header bytes included, now and then.
        if seed % 3 == 0 { builder.idatSizes = [1, 0, 5] }
        if seed % 4 == 0 { builder.blockSize = 7 }
        Self.expectFastAndExact(builder, "type \(colorType) \(width)x\(height)")
      }
    }
    // Each filter on every row of a wider image.
    for filter in UInt8(0)...4 {
      var builder = PNGStreamBuilder(width: 37, height: 6, colorType: colorType, seed: 99 + UInt64(filter))
      builder.filters = Array(repeating: filter, count: builder.height)
      Self.expectFastAndExact(builder, "type \(colorType) filter \(filter)")
    }
  }

  @Test func paletteEdgeCases() {
    // Indices past a short palette, tRNS shorter than the palette (both in
    // the default builder), no tRNS, a full palette.
    var builder = PNGStreamBuilder(width: 40, height: 7, colorType: 3, seed: 5)
    Self.expectFastAndExact(builder, "short palette")
    builder.transparency = nil
    Self.expectFastAndExact(builder, "no tRNS")
    builder.palette = (0..<768).map { UInt8(truncatingIfNeeded: $0 * 7) }
    builder.transparency = (0..<256).map { UInt8(255 - $0) }
    Self.expectFastAndExact(builder, "full palette")
    // A tRNS longer than the palette is invalid; libpng drops it, and so
    // the fast path, which asks libpng for tRNS, does too.
    builder.palette = Array(builder.palette.prefix(30))
    builder.transparency = Array(repeating: 0, count: 40)
    let decoded = Self.expectSameOutcome(builder.png(), "tRNS longer than PLTE")
    #expect(decoded.usedFastPath)
    #expect((try? decoded.result.get())?.isOpaque == true)
  }

  @Test func encoderOutputMatchesLibpng() throws {
    // libpng's encoder: real deflate at several levels, filters chosen per
    // row by libpng's heuristic.
    var random = SplitMix64(seed: 7)
    for (width, height) in [(1, 1), (7, 3), (61, 47), (256, 64)] {
      var straight = [UInt8](repeating: 0, count: width * height * 4)
      for y in 0..<height {
        for x in 0..<width {
          let i = (y * width + x) * 4
          straight[i] = UInt8(truncatingIfNeeded: x * 3 + Int(random.next() % 6))
          straight[i + 1] = UInt8(truncatingIfNeeded: y * 5 + x)
          straight[i + 2] = UInt8(truncatingIfNeeded: (x ^ y) * 2)
          straight[i + 3] = UInt8(truncatingIfNeeded: 255 - x - Int(random.next() % 3))
        }
      }
      let withAlpha = PixelBuffer(width: width, height: height, straightRGBA: straight)
      let opaqueBytes = stride(from: 0, to: straight.count, by: 1).map { $0 % 4 == 3 ? 255 : straight[$0] }
      let opaque = PixelBuffer(width: width, height: height, straightRGBA: opaqueBytes)
      for pixels in [withAlpha, opaque] {
        for level in [0, 1, 6, 9] {
          let data = try PNGCoder().encode(
            Image(pixels: pixels), as: .png, options: EncodeOptions(compressionLevel: level))
          let label = "\(width)x\(height) \(pixels.isOpaque ? "RGB" : "RGBA") level \(level)"
          let decoded = Self.expectSameOutcome(data, label)
          #expect(decoded.usedFastPath, "\(label)")
          if pixels.isOpaque { #expect((try? decoded.result.get()) == pixels, "\(label) round trip") }
        }
      }
    }
  }

  @Test func animationsDecodeAlikeBothWays() throws {
    var libpngOnly = PNGCoder()
    libpngOnly.usesFastPath = false
    for name in ["apng_ops.png", "apng_palette.png", "apng_hidden_default.png"] {
      let data = try TestPaths.fixture("png/" + name)
      let fast = try PNGCoder().decode(data, options: DecodeOptions())
      let slow = try libpngOnly.decode(data, options: DecodeOptions())
      #expect(fast.frames.count == slow.frames.count)
      for (a, b) in zip(fast.frames, slow.frames) { #expect(a.pixels == b.pixels, "\(name)") }
    }
  }

  @Test func oddStreamsEndAsLibpngEndsThem() {
    let base = PNGStreamBuilder(width: 19, height: 7, colorType: 2, seed: 3)
    func check(_ label: String, fast: Bool, succeeds: Bool, _ change: (inout PNGStreamBuilder) -> Void) {
      var builder = base
      change(&builder)
      let decoded = Self.expectSameOutcome(builder.png(), label)
      #expect(decoded.usedFastPath == fast, "\(label): fast path \(decoded.usedFastPath)")
      switch decoded.result {
      case .success(let pixels):
        #expect(succeeds, "\(label) decoded")
        if succeeds && builder.trailingBytes.isEmpty && (builder.transparency == nil || builder.colorType == 3) {
          let difference = Self.maxDifference(pixels.straightRGBA(), builder.expectedPixels())
          #expect(difference == 0, "\(label): pixels differ from the samples by up to \(difference)")
        }
      case .failure(let error):
        #expect(!succeeds, "\(label): \(error)")
      }
    }
    check("plain", fast: true, succeeds: true) { _ in }
    // libpng ignores the Adler-32, and so does the fast path.
    check("wrong Adler-32", fast: true, succeeds: true) { $0.breaksAdler = true }
    check("empty and tiny IDAT chunks", fast: true, succeeds: true) { $0.idatSizes = [0, 1, 0, 2, 0] }
    // More data than rows: libpng decodes the rows and warns; the fast path
    // leaves it to libpng.
    check("data past the last row", fast: false, succeeds: true) { $0.trailingBytes = [0, 1, 2, 3] }
    check("data short of the last row", fast: false, succeeds: false) { $0.missingBytes = 5 }
    check("bad filter type", fast: false, succeeds: false) { $0.filters[4] = 5 }
    // A 256-byte window: zlib would fail a match reaching past it, so the
    // fast path takes it only when the rows fit in it.
    check("small window, rows larger", fast: false, succeeds: true) { $0.zlibHeader = [0x08, 0x1D] }
    check("small window, rows fit", fast: true, succeeds: true) {
      $0 = PNGStreamBuilder(width: 5, height: 5, colorType: 0, seed: 4)
      $0.zlibHeader = [0x08, 0x1D]
    }
    check("window over 32 KiB", fast: false, succeeds: false) { $0.zlibHeader = [0x88, 0x1C] }
    check("preset dictionary", fast: false, succeeds: false) { $0.zlibHeader = [0x78, 0x20] }
    check("zlib check bits", fast: false, succeeds: false) { $0.zlibHeader = [0x78, 0x02] }
    check("not deflate", fast: false, succeeds: false) { $0.zlibHeader = [0x79, 0x18] }
    // A colour key on gray or RGB is libpng's.
    check("gray colour key", fast: false, succeeds: true) {
      $0 = PNGStreamBuilder(width: 9, height: 4, colorType: 0, seed: 8)
      $0.transparency = [0, 17]
    }
  }

  @Test func chunkDamageEndsAsLibpngEndsIt() {
    var builder = PNGStreamBuilder(width: 23, height: 9, colorType: 6, seed: 11)
    builder.idatSizes = [100, 100]
    let png = [UInt8](builder.png())
    let idat = png.withUnsafeBytes { raw in
      var reader = PNGChunkReader(raw)!
      var found: [PNGChunk] = []
      while let chunk = try? reader.next() { if chunk.type == PNGChunk.idat { found.append(chunk) } }
      return found
    }
    #expect(idat.count == 3)
    for (index, chunk) in idat.enumerated() {
      var damaged = png
      damaged[chunk.range.upperBound - 1] ^= 0x40
      let decoded = Self.expectSameOutcome(Data(damaged), "CRC of IDAT \(index)")
      #expect(!decoded.usedFastPath)
      if case .failure(let error) = decoded.result { #expect(error.reason.contains("CRC")) }
    }
    // Without IEND the image is whole; cut inside the last IDAT it is not.
    let lastEnd = idat.last!.range.upperBound
    #expect(Self.expectSameOutcome(Data(png.prefix(lastEnd)), "no IEND").usedFastPath)
    let cut = Self.expectSameOutcome(Data(png.prefix(lastEnd - 6)), "cut in IDAT")
    if case .failure(let error) = cut.result { #expect(error.code == .truncatedData) }
    // IDAT chunks that are not contiguous: libpng wants more data when a
    // tEXt chunk comes; the fast path sees only the first run.
    var split = builder
    split.idatSizes = [150]
    var bytes = [UInt8](split.png())
    let firstIDATEnd = bytes.withUnsafeBytes { raw in
      var reader = PNGChunkReader(raw)!
      while let chunk = try? reader.next() { if chunk.type == PNGChunk.idat { return chunk.range.upperBound } }
      return 0
    }
    let text = [UInt8](PNGDecodeTests.stream([("tEXt", Array("a\u{0}b".utf8))]).dropFirst(8))
    bytes.insert(contentsOf: text, at: firstIDATEnd)
    Self.expectSameOutcome(Data(bytes), "IDAT, tEXt, IDAT")
  }

  @Test func lyingSizeFailsAsLibpngFails() {
    // 4000x4000 RGBA declared (under the pixel limit), 20 bytes of data:
    // the fast path will not allocate rows the data cannot fill.
    let ihdr = PNGDecodeTests.bigEndian(4000) + PNGDecodeTests.bigEndian(4000) + [8, 6, 0, 0, 0]
    let idat: [UInt8] = [0x78, 0x01, 0x00, 0x0A, 0x00, 0xF5, 0xFF] + Array(repeating: 0, count: 10)
    let data = PNGDecodeTests.stream([("IHDR", ihdr), ("IDAT", idat), ("IEND", [])])
    let decoded = Self.expectSameOutcome(data, "lying size")
    #expect(!decoded.usedFastPath)
    if case .success = decoded.result { Issue.record("a 4000x4000 image decoded from 17 bytes") }
  }
}
