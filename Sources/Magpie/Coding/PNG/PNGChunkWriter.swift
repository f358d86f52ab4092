/// Builds a PNG stream chunk by chunk: the signature, then each chunk as
/// length, type, data and the CRC of type and data. Used to rebuild an
/// APNG frame as a standalone PNG for libpng and to write APNGs.
struct PNGChunkWriter {
  /// The stream so far.
  private(set) var bytes: [UInt8]

  /// A stream holding the signature, with room for `capacity` bytes.
  init(capacity: Int = 0) {
    bytes = []
    bytes.reserveCapacity(capacity)
    bytes += PNGChunkReader.signature
  }

  /// Appends a chunk of `type` holding `data`.
  mutating func append(_ type: UInt32, _ data: UnsafeRawBufferPointer) {
    let start = bytes.count
    appendBigEndian(UInt32(data.count))
    appendBigEndian(type)
    bytes.append(contentsOf: data.assumingMemoryBound(to: UInt8.self))
    let crc = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[(start + 4)...])) }
    appendBigEndian(crc)
  }

  /// Appends a chunk of `type` holding `data`.
  mutating func append(_ type: UInt32, _ data: [UInt8]) {
    data.withUnsafeBytes { append(type, $0) }
  }

  /// Appends bytes as they are (a chunk copied whole from another stream).
  mutating func appendRaw(_ raw: UnsafeRawBufferPointer) {
    bytes.append(contentsOf: raw.assumingMemoryBound(to: UInt8.self))
  }

  /// `value`'s four bytes, most significant first, as PNG stores numbers.
  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }

  private mutating func appendBigEndian(_ value: UInt32) {
    bytes += Self.bigEndian(value)
  }
}
