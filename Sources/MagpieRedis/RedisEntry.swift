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
    let crc = checksum(header, metadata, payload)
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
    let header = [UInt8](value.prefix(headerSize))
    guard Array(header[0..<4]) == magic, header[4] == version, header[5...7].allSatisfy({ $0 == 0 }) else {
      return nil
    }
    let metadataLength = Int(littleEndian(header, at: 8))
    let payloadLength = Int(littleEndian(header, at: 12))
    guard value.count - headerSize == metadataLength + payloadLength else { return nil }
    let start = value.startIndex + headerSize
    let metadata = value[start..<(start + metadataLength)]
    let payload = value[(start + metadataLength)...]
    guard checksum(Array(header[0..<16]), metadata, payload) == littleEndian(header, at: 16) else { return nil }
    return (Data(payload), metadataLength == 0 ? nil : Data(metadata))
  }

  private static func littleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
  }

  /// CRC-32 (ISO 3309) through libdeflate, as the disk cache's entries.
  private static func checksum(_ header: [UInt8], _ metadata: Data, _ payload: Data) -> UInt32 {
    let first = header.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
    let second = metadata.withUnsafeBytes { libdeflate_crc32(first, $0.baseAddress, $0.count) }
    return UInt32(payload.withUnsafeBytes { libdeflate_crc32(second, $0.baseAddress, $0.count) })
  }
}
