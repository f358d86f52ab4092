import Foundation

/// Writes the simplest valid PNG by hand: 8-bit RGBA, filter 0, deflate
/// "stored" blocks. Independent of libpng, so tests can feed Magpie pixels
/// they know exactly.
enum StoredPNG {
  /// A PNG of `width` x `height` straight-alpha RGBA pixels.
  static func encode(width: Int, height: Int, rgba: [UInt8]) -> Data {
    precondition(rgba.count == width * height * 4)
    var raw = [UInt8]()
    for y in 0..<height {
      raw.append(0)
      raw += rgba[(y * width * 4)..<((y + 1) * width * 4)]
    }
    var zlib: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65_535, raw.count - offset)
      let final: UInt8 = offset + count == raw.count ? 1 : 0
      zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
      zlib += raw[offset..<(offset + count)]
      offset += count
    } while offset < raw.count
    zlib += bigEndian(adler32(raw))
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0])
    png += chunk("IDAT", zlib)
    png += chunk("IEND", [])
    return Data(png)
  }

  private static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + payload
    return bigEndian(UInt32(payload.count)) + body + bigEndian(crc32(body))
  }

  private static func bigEndian(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }

  private static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return b << 16 | a
  }

  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
