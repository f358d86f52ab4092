@testable import Magpie

extension PixelBuffer {
  /// A straight-alpha test picture whose every channel changes from pixel
  /// to pixel (so a swapped channel, a flipped row or a wrong average
  /// shows), opaque or with alpha of every level.
  static func testPattern(width: Int, height: Int, alpha: Bool) -> PixelBuffer {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        bytes += [UInt8((x * 5 + y * 3) & 255), UInt8((x * x + y * 7) & 255), UInt8((x ^ y) & 255)]
        bytes.append(alpha ? UInt8((x * 11 + y * 13) % 256) : 255)
      }
    }
    return PixelBuffer(width: width, height: height, straightRGBA: bytes)
  }
}
