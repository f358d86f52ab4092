import Foundation

@testable import Magpie

/// Writes an animated GIF byte by byte with a chosen rectangle, disposal,
/// transparent index, interlacing and delay per frame: four global colours
/// (black, red, green, blue) and "uncompressed" LZW
/// (``GIFHostileInputTests/uncompressed(_:end:)``), so no encoder under test
/// is involved.
struct GIFAnimationBuilder {
  /// One frame as stored.
  struct Frame {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var disposal = 0
    var transparentIndex: Int?
    var isInterlaced = false
    var delayCentiseconds = 5
    /// Palette indices 0-3 in stored order, `width * height` of them (fewer
    /// makes the LZW data end early).
    var indices: [Int]
  }

  var width: Int
  var height: Int
  var loopCount: Int? = 0
  var frames: [Frame] = []

  /// A frame of indices drawn from `seed`, index 0 a third of the time when
  /// the frame has a transparent index, so that holes show.
  static func frame(
    x: Int, y: Int, width: Int, height: Int, disposal: Int = 0, transparentIndex: Int? = nil,
    isInterlaced: Bool = false, seed: UInt64
  ) -> Frame {
    var random = SplitMix64(seed: seed)
    let indices = (0..<(width * height)).map { _ in Int(random.next() % 4) }
    return Frame(
      x: x, y: y, width: width, height: height, disposal: disposal, transparentIndex: transparentIndex,
      isInterlaced: isInterlaced, delayCentiseconds: Int(seed % 7), indices: indices)
  }

  /// The file's bytes.
  func data() -> Data {
    func word(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    var bytes = Array("GIF89a".utf8) + word(width) + word(height) + [0xF1, 0, 0]
    bytes += [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]
    if let loopCount { bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + word(loopCount) + [0] }
    for frame in frames {
      let packed = UInt8(frame.disposal << 2 | (frame.transparentIndex == nil ? 0 : 1))
      bytes += [0x21, 0xF9, 4, packed] + word(frame.delayCentiseconds) + [UInt8(frame.transparentIndex ?? 0), 0]
      bytes += [0x2C] + word(frame.x) + word(frame.y) + word(frame.width) + word(frame.height)
      bytes += [frame.isInterlaced ? 0x40 : 0, 2]
      let lzw = GIFHostileInputTests.uncompressed(frame.indices)
      for start in stride(from: 0, to: lzw.count, by: 255) {
        let block = lzw[start..<min(lzw.count, start + 255)]
        bytes += [UInt8(block.count)] + block
      }
      bytes += [0]
    }
    return Data(bytes + [0x3B])
  }
}
