import Foundation
import Testing

@testable import Magpie

/// Hostile input: every truncation and many deterministic byte flips of a
/// few PNGs and APNGs must end in an image or a typed error, never a crash
/// or a hang; truncations that cut image data must fail. Samples of every
/// colour type the fast path takes must also end exactly as they end with
/// libpng alone.
@Suite struct PNGRobustnessTests {
  static let allowedCodes: Set<MagpieError.Code> = [.corruptData, .truncatedData, .imageTooLarge]

  /// A fixture PNG; the `seed_*` files are generated stand-ins for the
  /// PngSuite files these tests once borrowed, of the same kinds.
  static func sample(_ name: String) throws -> [UInt8] {
    [UInt8](try TestPaths.fixture("png/" + name))
  }

  /// Where the last image-data chunk (IDAT or fdAT) ends.
  static func endOfImageData(_ bytes: [UInt8]) throws -> Int {
    try bytes.withUnsafeBytes { raw throws(MagpieError) -> Int in
      guard var reader = PNGChunkReader(raw) else { throw MagpieError(.corruptData, "no signature") }
      var end = 0
      while let chunk = try reader.next() {
        if chunk.type == PNGChunk.idat || chunk.type == PNGChunk.fdat { end = chunk.range.upperBound }
      }
      return end
    }
  }

  /// Decodes, then reads info; returns the error codes seen.
  @discardableResult
  static func exercise(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) -> [MagpieError.Code] {
    var codes: [MagpieError.Code] = []
    let data = Data(bytes)
    do { _ = try PNGCoder().decode(data, options: options) } catch { codes.append(error.code) }
    do { _ = try PNGCoder().info(of: data) } catch { codes.append(error.code) }
    return codes
  }

  @Test(arguments: [
    "seed_rgba8.png", "seed_palette2_interlaced.png", "seed_gray16.png", "apng_ops.png", "apng_hidden_default.png",
    "seed_rgb8.png", "seed_palette8.png",
  ])
  func everyTruncationEndsCleanly(name: String) throws {
    let bytes = try Self.sample(name)
    let imageDataEnd = try Self.endOfImageData(bytes)
    #expect(imageDataEnd > 0)
    for length in 0..<bytes.count {
      let cut = Array(bytes.prefix(length))
      do {
        _ = try PNGCoder().decode(Data(cut), options: DecodeOptions())
        // Only the trailing IEND may be lost without losing the image.
        #expect(length >= imageDataEnd, "\(name) cut to \(length) bytes decoded")
      } catch {
        #expect(error.code == .truncatedData || error.code == .corruptData, "\(name) cut to \(length): \(error)")
      }
      Self.exercise(cut).forEach { #expect(Self.allowedCodes.contains($0), "\(name) cut to \(length): \($0)") }
    }
  }

  @Test(arguments: [
    "seed_rgba8.png", "seed_palette2_interlaced.png", "seed_rgb16.png", "apng_ops.png", "apng_palette.png",
    "seed_gray8.png", "seed_gray_alpha8.png",
  ])
  func byteFlipsEndCleanly(name: String) throws {
    let original = try Self.sample(name)
    var random = SplitMix64(seed: 0x5EED_0000 ^ UInt64(original.count))
    var failures = 0
    for round in 0..<400 {
      var bytes = original
      for _ in 0...(round % 3) {
        let at = Int(random.next() % UInt64(bytes.count))
        bytes[at] ^= UInt8(truncatingIfNeeded: random.next() | 1)
      }
      // Half the time, repair the CRCs so the damage reaches the chunk
      // parsers, zlib and the row filters instead of stopping at a CRC.
      if round % 2 == 1 { Self.fixCRCs(&bytes) }
      let codes = Self.exercise(bytes)
      failures += codes.isEmpty ? 0 : 1
      for code in codes { #expect(Self.allowedCodes.contains(code), "\(name) round \(round): \(code)") }
    }
    // The damage is real: most rounds must fail.
    #expect(failures > 100)
  }

  /// Fast-path samples: stored-block streams of every colour type and
  /// libpng-compressed RGB and RGBA, each split over several IDAT chunks.
  static func fastPathSamples() throws -> [(String, [UInt8])] {
    var samples: [(String, [UInt8])] = []
    for colorType in [0, 2, 3, 4, 6] {
      var builder = PNGStreamBuilder(width: 13, height: 9, colorType: colorType, seed: UInt64(colorType) + 21)
      builder.idatSizes = [1, 30, 0, 50]
      builder.blockSize = 40
      samples.append(("stored type \(colorType)", [UInt8](builder.png())))
    }
    var random = SplitMix64(seed: 77)
    for alpha in [false, true] {
      let straight = (0..<(40 * 24 * 4)).map { i in
        i % 4 == 3 && !alpha ? 255 : UInt8(truncatingIfNeeded: (i / 4 % 40) * 5 + i % 4 * 30 + Int(random.next() % 8))
      }
      let image = Image(pixels: PixelBuffer(width: 40, height: 24, straightRGBA: straight))
      let png = try PNGCoder().encode(image, as: .png, options: EncodeOptions(compressionLevel: 9))
      samples.append(("deflated \(alpha ? "RGBA" : "RGB")", try rechunked([UInt8](png), sizes: [5, 200, 1, 300])))
    }
    return samples
  }

  /// `png` with its IDAT payload split into chunks of `sizes` (and the rest).
  static func rechunked(_ png: [UInt8], sizes: [Int]) throws -> [UInt8] {
    try png.withUnsafeBytes { raw throws(MagpieError) -> [UInt8] in
      guard var reader = PNGChunkReader(raw) else { throw MagpieError(.corruptData, "no signature") }
      var chunks: [(String, [UInt8])] = []
      var payload: [UInt8] = []
      while let chunk = try reader.next() {
        let data = [UInt8](chunk.data(in: raw))
        if chunk.type == PNGChunk.idat {
          payload += data
        } else if chunk.type == PNGChunk.iend {
          var offset = 0
          for size in sizes where offset + size < payload.count {
            chunks.append(("IDAT", Array(payload[offset..<(offset + size)])))
            offset += size
          }
          chunks.append(("IDAT", Array(payload[offset...])))
          chunks.append(("IEND", []))
        } else {
          chunks.append((chunk.name, data))
        }
      }
      return [UInt8](PNGDecodeTests.stream(chunks))
    }
  }

  @Test func fastPathTruncationsEndAsLibpngEndsThem() throws {
    for (label, bytes) in try Self.fastPathSamples() {
      #expect(PNGFastPathTests.expectSameOutcome(Data(bytes), label).usedFastPath, "\(label)")
      let imageDataEnd = try Self.endOfImageData(bytes)
      for length in 0..<bytes.count {
        let decoded = PNGFastPathTests.expectSameOutcome(Data(bytes.prefix(length)), "\(label) cut to \(length)")
        if case .failure(let error) = decoded.result {
          #expect(Self.allowedCodes.contains(error.code))
        } else {
          #expect(length >= imageDataEnd, "\(label) cut to \(length) decoded")
        }
      }
    }
  }

  @Test func fastPathDataFlipsEndAsLibpngEndsThem() throws {
    for (label, original) in try Self.fastPathSamples() {
      // Flip bytes inside the IDAT payloads only, and repair the CRCs most
      // of the time, so the damage reaches libdeflate and the row filters.
      let payload: [Int] = try original.withUnsafeBytes { raw throws(MagpieError) -> [Int] in
        var reader = PNGChunkReader(raw)!
        var offsets: [Int] = []
        while let chunk = try reader.next() {
          if chunk.type == PNGChunk.idat { offsets += Array(chunk.dataRange) }
        }
        return offsets
      }
      var random = SplitMix64(seed: 0xFA57 ^ UInt64(original.count))
      var failures = 0
      var fast = 0
      for round in 0..<300 {
        var bytes = original
        for _ in 0...(round % 3) {
          bytes[payload[Int(random.next() % UInt64(payload.count))]] ^= UInt8(truncatingIfNeeded: random.next() | 1)
        }
        if round % 4 != 0 { Self.fixCRCs(&bytes) }
        let decoded = PNGFastPathTests.expectSameOutcome(Data(bytes), "\(label) round \(round)")
        fast += decoded.usedFastPath ? 1 : 0
        if case .failure(let error) = decoded.result {
          failures += 1
          #expect(Self.allowedCodes.contains(error.code), "\(label) round \(round): \(error)")
        }
      }
      // Both the fast path and its fallback are exercised.
      #expect(failures > 30, "\(label): \(failures) failures")
      #expect(fast > 0 || label.hasPrefix("deflated"), "\(label): the fast path never decoded")
    }
  }

  @Test func damagedHeaderSizesStayWithinLimits() throws {
    // Width and height rewritten to extremes (CRC repaired): the size check
    // or libpng rejects each before pixels are allocated past the limit.
    let original = try Self.sample("seed_rgba8.png")
    let options = DecodeOptions(maxPixelCount: 1 << 20)
    for (width, height) in [
      (0x7FFF_FFFF, 1), (1, 0x7FFF_FFFF), (0, 32), (0x8000_0000, 32), (70_000, 70_000), (4096, 257),
    ] {
      var bytes = original
      bytes.replaceSubrange(
        16..<24, with: PNGDecodeTests.bigEndian(UInt32(width)) + PNGDecodeTests.bigEndian(UInt32(height)))
      Self.fixCRCs(&bytes)
      let codes = Self.exercise(bytes, options: options)
      #expect(!codes.isEmpty, "\(width)x\(height) decoded")
      for code in codes { #expect(Self.allowedCodes.contains(code)) }
    }
  }

  /// Recomputes the CRC of every chunk whose length still fits the data.
  static func fixCRCs(_ bytes: inout [UInt8]) {
    var offset = 8
    while offset + 12 <= bytes.count {
      let length =
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
      guard length <= bytes.count - offset - 12 else { return }
      let crc = CRC32.checksum(Array(bytes[(offset + 4)..<(offset + 8 + length)]))
      bytes.replaceSubrange((offset + 8 + length)..<(offset + 12 + length), with: PNGDecodeTests.bigEndian(crc))
      offset += 12 + length
    }
  }
}
