import Foundation

@testable import Magpie

/// Writes an animated WebP chunk by chunk (VP8X, ANIM, one ANMF per frame)
/// with a chosen rectangle, blend and dispose bit and duration per frame;
/// each frame's bitstream is a lossless still from ``WebPCoder``, so the
/// layout is ours, not what libwebp's animation encoder would choose.
struct WebPAnimationBuilder {
  /// One frame: its rectangle (even offsets), bits and pixels.
  struct Frame {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var blends: Bool
    var disposesToBackground: Bool
    var milliseconds = 60
    /// Straight RGBA, `width * height * 4` bytes.
    var rgba: [UInt8]
  }

  var width: Int
  var height: Int
  var loopCount = 3
  var frames: [Frame] = []

  /// Photo-like pixels from `seed`; with `holes`, about a third of them
  /// transparent and some half transparent.
  static func frame(
    x: Int, y: Int, width: Int, height: Int, blends: Bool, disposesToBackground: Bool, holes: Bool, seed: UInt64
  ) -> Frame {
    var random = SplitMix64(seed: seed)
    var rgba: [UInt8] = []
    for i in 0..<(width * height) {
      let r = random.next()
      let alpha: UInt8 = holes ? [0, 128, 255][Int(r % 3)] : 255
      rgba += [
        UInt8(truncatingIfNeeded: i * 5 + Int(seed)), UInt8(truncatingIfNeeded: r >> 8),
        UInt8(truncatingIfNeeded: seed &* 40), alpha,
      ]
    }
    return Frame(
      x: x, y: y, width: width, height: height, blends: blends, disposesToBackground: disposesToBackground,
      milliseconds: 20 + Int(seed % 5) * 30, rgba: rgba)
  }

  /// The file's bytes.
  func data() throws -> Data {
    func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
      Array(type.utf8) + le(payload.count, 4) + payload + (payload.count % 2 == 1 ? [0] : [])
    }
    var body = chunk("VP8X", [0x12, 0, 0, 0] + le(width - 1, 3) + le(height - 1, 3))
    body += chunk("ANIM", [0, 0, 0, 0] + le(loopCount, 2))
    for frame in frames {
      let pixels = PixelBuffer(width: frame.width, height: frame.height, straightRGBA: frame.rgba)
      let still = try WebPCoder().encode(
        Image(frames: [ImageFrame(pixels: pixels)], loopCount: 0, format: .webp), as: .webp,
        options: EncodeOptions(lossless: true))
      let flags = (frame.blends ? 0 : 2) | (frame.disposesToBackground ? 1 : 0)
      var payload = le(frame.x / 2, 3) + le(frame.y / 2, 3) + le(frame.width - 1, 3) + le(frame.height - 1, 3)
      payload += le(frame.milliseconds, 3) + [UInt8(flags)]
      payload += Self.imageChunks(of: [UInt8](still))
      body += chunk("ANMF", payload)
    }
    return Data(Array("RIFF".utf8) + le(4 + body.count, 4) + Array("WEBP".utf8) + body)
  }

  /// The ALPH, VP8 and VP8L chunks of a still WebP, as stored.
  private static func imageChunks(of file: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var offset = 12
    while offset + 8 <= file.count {
      let type = String(decoding: file[offset..<(offset + 4)], as: UTF8.self)
      let size = (0..<4).reduce(0) { $0 | Int(file[offset + 4 + $1]) << (8 * $1) }
      let end = offset + 8 + size + size % 2
      if ["ALPH", "VP8 ", "VP8L"].contains(type) { out += file[offset..<min(end, file.count)] }
      offset = end
    }
    return out
  }
}
