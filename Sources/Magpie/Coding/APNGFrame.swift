/// One frame of an APNG: its control chunk and the chunks holding its
/// compressed pixels.
struct APNGFrame: Sendable, Equatable {
  /// The frame's `fcTL`.
  var control: APNGFrameControl
  /// The frame's data chunks in order: the IDAT chunks for a default image
  /// that is part of the animation, else its `fdAT` chunks.
  var dataChunks: [PNGChunk] = []
  /// Whether the frame is the default image (its data is in IDAT).
  var isDefaultImage: Bool

  /// A standalone PNG stream holding just this frame, for libpng: the
  /// signature, an IHDR with the frame's size, the shared chunks (PLTE,
  /// tRNS) copied as they are, one IDAT per `fdAT` with the sequence number
  /// removed and a fresh CRC, and IEND. Each `fdAT`'s own CRC is checked
  /// first, since the rebuilt chunk would otherwise hide damage.
  func standaloneStream(
    in bytes: UnsafeRawBufferPointer, header: PNGHeader, sharedChunks: [PNGChunk]
  ) throws(MagpieError) -> [UInt8] {
    precondition(!isDefaultImage, "the default image decodes from the file itself")
    let size = PixelSize(width: control.width, height: control.height)
    var total = PNGChunkReader.signature.count + 25 + 12
    for chunk in sharedChunks { total += chunk.range.count }
    for chunk in dataChunks { total += chunk.length + 8 }
    var stream = [UInt8]()
    stream.reserveCapacity(total)
    stream += PNGChunkReader.signature
    func append(_ type: UInt32, _ data: UnsafeRawBufferPointer) {
      let start = stream.count
      appendBigEndian(UInt32(data.count))
      appendBigEndian(type)
      stream.append(contentsOf: data.assumingMemoryBound(to: UInt8.self))
      let crc = stream.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[(start + 4)...])) }
      appendBigEndian(crc)
    }
    func appendBigEndian(_ value: UInt32) {
      stream += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
    header.ihdrData(size: size).withUnsafeBytes { append(PNGChunk.ihdr, $0) }
    for chunk in sharedChunks {
      stream.append(
        contentsOf: UnsafeRawBufferPointer(rebasing: bytes[chunk.range]).assumingMemoryBound(to: UInt8.self))
    }
    for chunk in dataChunks {
      guard chunk.hasValidCRC(in: bytes) else {
        throw MagpieError(.corruptData, "the APNG fdAT chunk at byte \(chunk.offset) fails its CRC check")
      }
      // fdAT data is a 4-byte sequence number followed by what IDAT would hold.
      let payload = (chunk.dataRange.lowerBound + 4)..<chunk.dataRange.upperBound
      append(PNGChunk.idat, UnsafeRawBufferPointer(rebasing: bytes[payload]))
    }
    append(PNGChunk.iend, UnsafeRawBufferPointer(start: nil, count: 0))
    return stream
  }
}
