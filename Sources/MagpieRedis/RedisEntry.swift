import CDeflate
import Foundation
import Magpie

/// The bytes one ``RedisStorage`` value holds: a 20-byte header, the
/// entry's metadata (its validators), then the serializer's bytes.
///
/// | Offset | Size | Field                                                       |
/// |-------:|-----:|-------------------------------------------------------------|
/// |      0 |    4 | magic `MGPR`                                                |
/// |      4 |    1 | format version, ``version`` (1)                             |
/// |      5 |    3 | reserved, zero                                              |
/// |      8 |    4 | metadata length, little-endian                              |
/// |     12 |    4 | payload length, little-endian                               |
/// |     16 |    4 | CRC-32 of bytes 0..<16, the metadata and the payload, LE    |
///
/// Any value that fails these checks (another program's value under the
/// key, a flipped bit, a cut-off write) is no entry: the storage deletes it
/// and reports a miss, and the image is fetched again.
enum RedisEntry {
  /// The bytes before the metadata.
  static let headerSize = 20
  /// The format version written and read.
  static let version: UInt8 = 1
  private static let magic: [UInt8] = Array("MGPR".utf8)

  /// `payload` and `metadata` as one value.
  static func encode(_ payload: Data, metadata: Data?) -> Data {
    let metadata = metadata ?? Data()
    var header = magic + [version, 0, 0, 0]
    withUnsafeBytes(of: UInt32(metadata.count).littleEndian) { header += $0 }
    withUnsafeBytes(of: UInt32(payload.count).littleEndian) { header += $0 }
    let crc = header.withUnsafeBytes { header in
      metadata.withUnsafeBytes { metadata in payload.withUnsafeBytes { checksum(header, metadata, $0) } }
    }
    withUnsafeBytes(of: crc.littleEndian) { header += $0 }
    var value = Data(capacity: headerSize + metadata.count + payload.count)
    value.append(contentsOf: header)
    value.append(metadata)
    value.append(payload)
    return value
  }

  /// The payload and metadata of a valid value, or `nil` for any other.
  static func decode(_ value: Data) -> (payload: Data, metadata: Data?)? {
    guard value.count >= headerSize else { return nil }
    let checked = value.withUnsafeBytes { raw -> (metadata: Int, payload: Int)? in
      func word(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
      }
      guard raw.prefix(4).elementsEqual(magic), raw[4] == version, raw[5] == 0, raw[6] == 0, raw[7] == 0 else {
        return nil
      }
      let metadataLength = Int(word(8))
      let payloadLength = Int(word(12))
      guard raw.count - headerSize == metadataLength + payloadLength else { return nil }
      // The header's first 16 bytes, then metadata and payload together.
      let sum = checksum(
        UnsafeRawBufferPointer(rebasing: raw[..<16]), UnsafeRawBufferPointer(rebasing: raw[headerSize...]))
      guard sum == word(16) else { return nil }
      return (metadataLength, payloadLength)
    }
    guard let checked else { return nil }
    let start = value.startIndex + headerSize
    let metadata = checked.metadata == 0 ? nil : Data(value[start..<(start + checked.metadata)])
    return (Data(value[(start + checked.metadata)...]), metadata)
  }

  /// CRC-32 (ISO 3309) through libdeflate, as the disk cache's entries,
  /// over `parts` in order.
  private static func checksum(_ parts: UnsafeRawBufferPointer...) -> UInt32 {
    parts.reduce(0) { UInt32(libdeflate_crc32($0, $1.baseAddress, $1.count)) }
  }
}
