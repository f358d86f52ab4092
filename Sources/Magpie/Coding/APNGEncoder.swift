import Foundation

/// Writes an animation as an APNG: each frame encoded whole by libpng,
/// its image data rewrapped as the first frame's IDAT or a later frame's
/// fdAT chunks, behind acTL and one fcTL per frame. Every frame covers the
/// canvas and replaces it (dispose none, blend source), so decoding gives
/// back exactly the frames given, durations in milliseconds and the loop
/// count; browsers and PNG viewers without APNG show the first frame.
enum APNGEncoder {
  /// The APNG of `frames` (canvas-sized, one size), played `loopCount`
  /// times (0: forever), with zlib level `level`.
  static func encode(_ frames: [ImageFrame], loopCount: Int, level: Int) throws(MagpieError) -> Data {
    guard let first = frames.first else { throw MagpieError(.invalidArgument, "an APNG needs at least one frame") }
    let size = first.pixels.size
    guard frames.allSatisfy({ $0.pixels.size == size }) else {
      throw MagpieError(.invalidArgument, "APNG frames must all be the canvas size, \(size)")
    }
    guard frames.count <= Int(UInt32.max), loopCount >= 0, loopCount <= Int(UInt32.max) else {
      throw MagpieError(.invalidArgument, "an APNG holds at most 2^32-1 frames and loops")
    }
    // One colour type for every frame, as IHDR is shared: RGB only when all are opaque.
    let dropAlpha = frames.allSatisfy { $0.pixels.isOpaque }
    var output = Data(PNGChunkReader.signature)
    var sequence: UInt32 = 0
    for (index, frame) in frames.enumerated() {
      let png = try encodeWhole(frame.pixels, dropAlpha: dropAlpha, level: level)
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
                appendChunk(PNGChunk.fctl, frameControl(frame, size: size, sequence: &sequence), to: &output)
                wroteControl = true
              }
              if index == 0 {
                appendChunk(PNGChunk.idat, Array(data), to: &output)
              } else {
                appendChunk(PNGChunk.fdat, bigEndian(sequence) + Array(data), to: &output)
                sequence += 1
              }
            } else if index == 0 {
              // IHDR and libpng's other header chunks, then acTL before the image data.
              appendChunk(chunk.type, Array(data), to: &output)
              if chunk.type == PNGChunk.ihdr {
                appendChunk(PNGChunk.actl, bigEndian(UInt32(frames.count)) + bigEndian(UInt32(loopCount)), to: &output)
              }
            }
          }
        }
      }
      try rewrapped.get()
    }
    appendChunk(PNGChunk.iend, [], to: &output)
    return output
  }

  private static func encodeWhole(_ pixels: PixelBuffer, dropAlpha: Bool, level: Int) throws(MagpieError) -> Data {
    let straight = pixels.straightRGBA()
    let result: Result<Data, MagpieError> = straight.withUnsafeBytes { raw in
      Result { () throws(MagpieError) -> Data in
        try PNGCoder.encode(
          raw, size: pixels.size, stride: pixels.width * PixelBuffer.bytesPerPixel, dropAlpha: dropAlpha,
          level: level)
      }
    }
    return try result.get()
  }

  /// fcTL: a whole-canvas frame that replaces the canvas, its duration in
  /// milliseconds (or coarser units when it does not fit 16 bits).
  private static func frameControl(_ frame: ImageFrame, size: PixelSize, sequence: inout UInt32) -> [UInt8] {
    let milliseconds = max(0, frame.durationMilliseconds)
    let (numerator, denominator): (Int, Int) =
      milliseconds <= 0xFFFF
      ? (milliseconds, 1000)
      : milliseconds / 10 <= 0xFFFF ? (milliseconds / 10, 100) : (min(0xFFFF, milliseconds / 1000), 1)
    var bytes = bigEndian(sequence)
    sequence += 1
    bytes += bigEndian(UInt32(size.width)) + bigEndian(UInt32(size.height)) + bigEndian(0) + bigEndian(0)
    bytes += [UInt8(numerator >> 8), UInt8(numerator & 0xFF), UInt8(denominator >> 8), UInt8(denominator & 0xFF)]
    bytes += [0, 0]  // dispose none, blend source
    return bytes
  }

  private static func appendChunk(_ type: UInt32, _ data: [UInt8], to output: inout Data) {
    let typeBytes = bigEndian(type)
    output.append(contentsOf: bigEndian(UInt32(data.count)))
    output.append(contentsOf: typeBytes)
    output.append(contentsOf: data)
    let crc = typeBytes.withUnsafeBytes { typeRaw in
      data.withUnsafeBytes { CRC32.checksum($0, continuing: CRC32.checksum(typeRaw)) }
    }
    output.append(contentsOf: bigEndian(crc))
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }
}
