import Foundation

/// A decompression bomb made by hand, so the tests need no zlib: a deflate
/// stream (in a gzip or zlib wrapper) whose first block holds a PNG
/// signature as literals and whose every later block, ``segment``, repeats
/// the last byte 258 × 4096 times with 13-bit matches: about 160 times its
/// size, for as long as the origin keeps sending segments. Every block ends
/// with an empty stored block, so each starts on a byte boundary and the
/// segment's bytes are always the same.
enum DeflateBomb {
  /// The wrapper's header and the first block.
  static func start(gzip: Bool) -> Data {
    // gzip: magic, deflate, no flags, no time, no extra flags, unknown OS.
    // zlib: deflate with a 32 KB window, no dictionary, check bits.
    var bits = Bits(bytes: gzip ? [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] : [0x78, 0x01])
    bits.fixedBlockHeader()
    for byte in [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] as [Int] {
      // Fixed literal codes: 0-143 are 0x30 + value in 8 bits, 144-255 are
      // 0x190 + (value - 144) in 9 bits.
      if byte < 144 { bits.code(0x30 + byte, length: 8) } else { bits.code(0x190 + byte - 144, length: 9) }
    }
    bits.endBlock()
    return Data(bits.bytes)
  }

  /// One block that inflates to 258 × 4096 copies of the previous byte.
  static let segment: Data = {
    var bits = Bits(bytes: [])
    bits.fixedBlockHeader()
    for _ in 0..<4096 {
      bits.code(0xC5, length: 8)  // length code 285: 258 bytes
      bits.code(0, length: 5)  // distance code 0: 1 byte back
    }
    bits.endBlock()
    return Data(bits.bytes)
  }()

  /// Deflate's bit order: fields least significant bit first, Huffman
  /// codes most significant bit first.
  private struct Bits {
    var bytes: [UInt8]
    var used = 0

    mutating func bit(_ value: Int) {
      if used == 0 { bytes.append(0) }
      bytes[bytes.count - 1] |= UInt8(value & 1) << used
      used = (used + 1) % 8
    }

    mutating func field(_ value: Int, length: Int) {
      for index in 0..<length { bit(value >> index) }
    }

    mutating func code(_ value: Int, length: Int) {
      for index in (0..<length).reversed() { bit(value >> index) }
    }

    /// Not final, fixed Huffman codes.
    mutating func fixedBlockHeader() {
      field(0, length: 1)
      field(1, length: 2)
    }

    /// End of block (code 256, seven zero bits), then an empty stored
    /// block: three header bits, padding to the byte, LEN 0 and NLEN.
    mutating func endBlock() {
      code(0, length: 7)
      field(0, length: 3)
      used = 0
      bytes += [0x00, 0x00, 0xFF, 0xFF]
    }
  }
}
