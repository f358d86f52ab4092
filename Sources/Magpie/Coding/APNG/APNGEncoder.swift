import Foundation

/// Writes an animation as an APNG: each frame encoded whole by libpng,
/// its image data rewrapped as the first frame's IDAT or a later frame's
/// fdAT chunks, behind acTL and one fcTL per frame. Every frame covers the
/// canvas and replaces it (dispose none, blend source), so decoding gives
/// back exactly the frames given, durations in milliseconds and the loop
/// count; browsers and PNG viewers without APNG show the first frame.
enum APNGEncoder {
  /// The APNG of `frames` (canvas-sized, one size), read in order, with
  /// zlib level `level`.
  static func encode(_ frames: inout EncodingFrames, level: Int) throws(MagpieError) -> Data {
    let size = frames.size
    let loopCount = frames.loopCount
    guard frames.count > 0 else { throw MagpieError(.invalidArgument, "an APNG needs at least one frame") }
    guard frames.count <= Int(UInt32.max), loopCount >= 0, loopCount <= Int(UInt32.max) else {
      throw MagpieError(.invalidArgument, "an APNG holds at most 2^32-1 frames and loops")
    }
    // One colour type for every frame, as IHDR is shared: RGB only when
    // all are known to be opaque (frames still to be decoded are not).
    let dropAlpha = frames.allOpaque ?? false
    var output = PNGChunkWriter()
    var sequence: UInt32 = 0
    let count = frames.count
    for index in 0..<frames.count {
      guard let frame = try frames.next(), frame.pixels.size == size else {
        throw MagpieError(.invalidArgument, "APNG frame \(index + 1) of \(frames.count) is missing or not \(size)")
      }
      let png = try PNGCoder.encode(frame.pixels, dropAlpha: dropAlpha, level: level)
      let rewrapped: Result<Void, MagpieError> = png.withUnsafeBytes { bytes in
        Result { () throws(MagpieError) in
          guard var reader = PNGChunkReader(bytes) else {
            throw MagpieError(.encodingFailed, "libpng wrote no PNG signature")
          }
          var wroteControl = false
          while let chunk = try reader.next(), chunk.type != PNGChunk.iend {
            let data = chunk.data(in: bytes)
            if chunk.type == PNGChunk.idat {
              if !wroteControl {
                output.append(PNGChunk.fctl, frameControl(frame, size: size, sequence: &sequence))
                wroteControl = true
              }
              if index == 0 {
                output.append(PNGChunk.idat, data)
              } else {
                output.append(PNGChunk.fdat, PNGChunkWriter.bigEndian(sequence) + Array(data))
                sequence += 1
              }
            } else if index == 0 {
              // IHDR and libpng's other header chunks, then acTL before the image data.
              output.append(chunk.type, data)
              if chunk.type == PNGChunk.ihdr {
                output.append(
                  PNGChunk.actl,
                  PNGChunkWriter.bigEndian(UInt32(count)) + PNGChunkWriter.bigEndian(UInt32(loopCount)))
              }
            }
          }
        }
      }
      try rewrapped.get()
    }
    output.append(PNGChunk.iend, [])
    return Data(output.bytes)
  }

  /// fcTL: a whole-canvas frame that replaces the canvas, its duration in
  /// milliseconds (or coarser units when it does not fit 16 bits).
  private static func frameControl(_ frame: ImageFrame, size: PixelSize, sequence: inout UInt32) -> [UInt8] {
    let milliseconds = max(0, frame.durationMilliseconds)
    let (numerator, denominator): (Int, Int) =
      milliseconds <= 0xFFFF
      ? (milliseconds, 1000)
      : milliseconds / 10 <= 0xFFFF ? (milliseconds / 10, 100) : (min(0xFFFF, milliseconds / 1000), 1)
    var bytes = PNGChunkWriter.bigEndian(sequence)
    sequence += 1
    bytes += PNGChunkWriter.bigEndian(UInt32(size.width)) + PNGChunkWriter.bigEndian(UInt32(size.height))
    bytes += PNGChunkWriter.bigEndian(0) + PNGChunkWriter.bigEndian(0)
    bytes += [UInt8(numerator >> 8), UInt8(numerator & 0xFF), UInt8(denominator >> 8), UInt8(denominator & 0xFF)]
    bytes += [0, 0]  // dispose none, blend source
    return bytes
  }
}
