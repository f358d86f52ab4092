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
    var stream = PNGChunkWriter(capacity: total)
    header.ihdrData(size: size).withUnsafeBytes { stream.append(PNGChunk.ihdr, $0) }
    for chunk in sharedChunks {
      stream.appendRaw(UnsafeRawBufferPointer(rebasing: bytes[chunk.range]))
    }
    for chunk in dataChunks {
      guard chunk.hasValidCRC(in: bytes) else {
        throw MagpieError(.corruptData, "the APNG fdAT chunk at byte \(chunk.offset) fails its CRC check")
      }
      // fdAT data is a 4-byte sequence number followed by what IDAT would hold.
      let payload = (chunk.dataRange.lowerBound + 4)..<chunk.dataRange.upperBound
      stream.append(PNGChunk.idat, UnsafeRawBufferPointer(rebasing: bytes[payload]))
    }
    stream.append(PNGChunk.iend, UnsafeRawBufferPointer(start: nil, count: 0))
    return stream.bytes
  }
}
