import Foundation
import Testing

@testable import Magpie

/// Hostile input: every truncation and many deterministic byte flips of a
/// few PNGs and APNGs must end in an image or a typed error, never a crash
/// or a hang; truncations that cut image data must fail.
@Suite struct PNGRobustnessTests {
  static let allowedCodes: Set<MagpieError.Code> = [.corruptData, .truncatedData, .imageTooLarge]

  static func sample(_ name: String) throws -> [UInt8] {
    if name.hasPrefix("apng") || !name.hasPrefix("bas") {
      return [UInt8](try TestPaths.fixture("png/" + name))
    }
    return [UInt8](try Data(contentsOf: TestPaths.sharedTestData.appendingPathComponent("pngsuite/" + name)))
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

  @Test(arguments: ["basn6a08.png", "basi3p02.png", "basn0g16.png", "apng_ops.png", "apng_hidden_default.png"])
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

  @Test(arguments: ["basn6a08.png", "basi3p02.png", "basn2c16.png", "apng_ops.png", "apng_palette.png"])
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

  @Test func damagedHeaderSizesStayWithinLimits() throws {
    // Width and height rewritten to extremes (CRC repaired): the size check
    // or libpng rejects each before pixels are allocated past the limit.
    let original = try Self.sample("basn6a08.png")
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

  /// A tiny deterministic generator (Vigna's SplitMix64) for the flip loop.
  private struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
