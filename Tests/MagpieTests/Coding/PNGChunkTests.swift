import Foundation
import Testing

@testable import Magpie

/// The Swift-side chunk machinery APNG relies on: CRC-32, the chunk walker
/// and the fcTL parser.
@Suite struct PNGChunkTests {
  @Test func crcMatchesTheStandardCheckValues() {
    // The CRC-32 check value from the PNG specification's sample code and
    // every CRC catalogue: "123456789" -> 0xCBF43926.
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([]) == 0)
    // IEND's CRC is fixed: AE 42 60 82.
    #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
    // Long input takes the 8-bytes-at-a-time path; continuing must agree.
    let long = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let whole = CRC32.checksum(long)
    let split = long.withUnsafeBytes { raw in
      CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[13...]), continuing: CRC32.checksum(Array(long[..<13])))
    }
    #expect(whole == split)
    #expect(whole == Self.bitwiseCRC(long))
  }

  /// The textbook bit-at-a-time CRC, as an independent reference.
  static func bitwiseCRC(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      c ^= UInt32(byte)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return ~c
  }

  @Test func walkerFindsChunksAndRejectsLies() throws {
    let data = PNGDecodeTests.stream([("IHDR", [UInt8](repeating: 1, count: 13)), ("IEND", [])])
    let bytes = [UInt8](data)
    try bytes.withUnsafeBytes { raw in
      var reader = try #require(PNGChunkReader(raw))
      let ihdr = try #require(try reader.next())
      #expect(ihdr.type == PNGChunk.ihdr && ihdr.length == 13 && ihdr.name == "IHDR")
      #expect(ihdr.hasValidCRC(in: raw))
      #expect(try reader.next()?.type == PNGChunk.iend)
      #expect(try reader.next() == nil)
    }
    // A length running past the end is truncation; one above 2^31-1 is corrupt.
    var lying = bytes
    lying[8...11] = [0, 0, 1, 0]
    var huge = bytes
    huge[8...11] = [0x80, 0, 0, 0]
    for (input, code) in [(lying, MagpieError.Code.truncatedData), (huge, .corruptData)] {
      input.withUnsafeBytes { raw in
        var reader = PNGChunkReader(raw)!
        #expect {
          try reader.next()
        } throws: { ($0 as? MagpieError)?.code == code }
      }
    }
    [UInt8]([0x89, 0x50]).withUnsafeBytes { #expect(PNGChunkReader($0) == nil) }
  }

  @Test func frameControlValidatesOpsAndRectangle() throws {
    func parse(_ fields: [UInt8]) throws -> APNGFrameControl {
      try fields.withUnsafeBytes { raw throws(MagpieError) in
        try APNGFrameControl(parsing: raw, canvas: PixelSize(width: 10, height: 10))
      }
    }
    // seq 3, 4x5 at (6, 5), delay 7/0 (den 0 means 1/100 s), dispose 2, blend 1.
    let good: [UInt8] = [0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0, 5, 0, 7, 0, 0, 2, 1]
    let control = try parse(good)
    #expect(control.sequenceNumber == 3)
    #expect((control.width, control.height, control.x, control.y) == (4, 5, 6, 5))
    #expect(control.disposeOp == .previous && control.blendOp == .over)
    #expect(control.delayMilliseconds == 70)
    var badDispose = good
    badDispose[24] = 3
    var badBlend = good
    badBlend[25] = 2
    var outside = good
    outside[15] = 7  // x 7 + width 4 > 10
    var empty = good
    empty[7] = 0  // width 0
    for fields in [badDispose, badBlend, outside, empty, Array(good.prefix(25))] {
      #expect(throws: MagpieError.self) { try parse(fields) }
    }
  }
}
