/// The CRC-32 that PNG chunks carry (ISO 3309, polynomial 0xEDB88320).
///
/// APNG frames are rebuilt as standalone PNG streams whose IDAT chunks need
/// fresh CRCs, and the `fdAT`/`fcTL`/`acTL` chunks libpng never sees are
/// checked here. Slicing by 8 keeps it near memory speed.
enum CRC32 {
  /// Eight 256-entry tables, table `k` advancing a byte `k` positions further.
  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for n in 0..<256 {
      var c = UInt32(n)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
      tables[n] = c
    }
    for n in 0..<256 {
      for k in 1..<8 {
        let previous = tables[(k - 1) * 256 + n]
        tables[k * 256 + n] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
      }
    }
    return tables
  }()

  /// The CRC of `bytes`, continuing from `crc` (the CRC of the bytes before
  /// them; 0 to start).
  static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    var c = ~crc
    let count = bytes.count
    tables.withUnsafeBufferPointer { t in
      var i = 0
      while i + 8 <= count {
        let lo = c ^ UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self))
        let hi = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self))
        c =
          t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
          ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
          ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
        i += 8
      }
      while i < count {
        c = t[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8)
        i += 1
      }
    }
    return ~c
  }

  /// The CRC of `bytes`.
  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { checksum($0) }
  }
}
