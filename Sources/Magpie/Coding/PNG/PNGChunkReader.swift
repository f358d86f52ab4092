/// Walks the chunks of a PNG stream without looking inside them.
///
/// Every length is checked against the data before it is used, so a lying
/// length ends the walk with an error instead of reading past the end.
struct PNGChunkReader {
  /// The eight bytes every PNG stream starts with.
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// The largest chunk length the PNG specification allows, 2^31 - 1.
  static let maxChunkLength = 0x7FFF_FFFF

  private let bytes: UnsafeRawBufferPointer
  /// Offset of the next chunk's length field.
  private(set) var offset: Int

  /// A reader positioned at the first chunk, after the signature; `nil` when
  /// the signature is missing or damaged.
  init?(_ bytes: UnsafeRawBufferPointer) {
    guard Self.hasSignature(bytes) else { return nil }
    self.bytes = bytes
    self.offset = Self.signature.count
  }

  /// Whether `bytes` starts with the PNG signature.
  static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= signature.count && bytes.prefix(signature.count).elementsEqual(signature)
  }

  /// The next chunk, or `nil` when the data ends exactly at a chunk boundary.
  /// Throws ``MagpieError/Code/truncatedData`` when a chunk runs past the end
  /// of the data and ``MagpieError/Code/corruptData`` for an impossible length.
  mutating func next() throws(MagpieError) -> PNGChunk? {
    if offset == bytes.count { return nil }
    guard bytes.count - offset >= 8 else {
      throw MagpieError(.truncatedData, "the PNG data ends inside a chunk header at byte \(offset)")
    }
    let length = Int(PNGChunk.bigEndian32(bytes, at: offset))
    let chunk = PNGChunk(type: PNGChunk.bigEndian32(bytes, at: offset + 4), offset: offset, length: length)
    guard length <= Self.maxChunkLength else {
      throw MagpieError(
        .corruptData, "the \(chunk.name) chunk at byte \(offset) declares an impossible length \(length)")
    }
    guard bytes.count - offset - 12 >= length else {
      throw MagpieError(
        .truncatedData,
        "the PNG data ends inside the \(chunk.name) chunk at byte \(offset) (\(length) data bytes declared)")
    }
    offset += 12 + length
    return chunk
  }
}
