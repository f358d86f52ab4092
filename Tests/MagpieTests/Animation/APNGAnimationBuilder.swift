import Foundation

@testable import Magpie

/// Writes an APNG chunk by chunk: RGBA frames of photo-like samples from
/// ``PNGStreamBuilder`` (stored deflate blocks), each with a chosen
/// rectangle, dispose op, blend op and delay, and a default image that is
/// the first frame or, with `hidesDefaultImage`, not part of the animation.
struct APNGAnimationBuilder {
  /// One frame: its rectangle and ops, and its samples.
  struct Frame {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    /// 0 none, 1 background, 2 previous.
    var dispose: UInt8
    /// 0 source, 1 over.
    var blend: UInt8
    var delayNumerator: UInt16 = 7
    var delayDenominator: UInt16 = 100
    /// Makes every alpha sample 255.
    var isOpaque = false
    var seed: UInt64
  }

  var width: Int
  var height: Int
  var plays = 2
  var hidesDefaultImage = false
  var frames: [Frame] = []

  private func stream(of frame: Frame) -> PNGStreamBuilder {
    var builder = PNGStreamBuilder(width: frame.width, height: frame.height, colorType: 6, seed: frame.seed)
    if frame.isOpaque { for i in stride(from: 3, to: builder.samples.count, by: 4) { builder.samples[i] = 255 } }
    return builder
  }

  /// The file's bytes.
  func data() -> Data {
    func be32(_ v: Int) -> [UInt8] { PNGDecodeTests.bigEndian(UInt32(v)) }
    func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    var chunks: [(String, [UInt8])] = [("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])]
    chunks.append(("acTL", be32(frames.count) + be32(plays)))
    var sequence = 0
    func control(_ frame: Frame) -> [UInt8] {
      defer { sequence += 1 }
      return be32(sequence) + be32(frame.width) + be32(frame.height) + be32(frame.x) + be32(frame.y)
        + be16(frame.delayNumerator) + be16(frame.delayDenominator) + [frame.dispose, frame.blend]
    }
    var rest = frames[...]
    if hidesDefaultImage {
      let still = PNGStreamBuilder(width: width, height: height, colorType: 6, seed: 999)
      chunks.append(("IDAT", still.zlibStream()))
    } else {
      let first = rest.removeFirst()
      chunks.append(("fcTL", control(first)))
      chunks.append(("IDAT", stream(of: first).zlibStream()))
    }
    for frame in rest {
      chunks.append(("fcTL", control(frame)))
      let number = be32(sequence)
      sequence += 1
      chunks.append(("fdAT", number + stream(of: frame).zlibStream()))
    }
    chunks.append(("IEND", []))
    return PNGDecodeTests.stream(chunks)
  }
}
