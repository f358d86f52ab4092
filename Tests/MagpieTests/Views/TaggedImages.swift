import Foundation

@testable import Magpie

/// Small PNGs that carry a number in their first pixel, so a test can tell
/// which URL's image a target shows.
enum TaggedImages {
  /// A 4x4 PNG tagged `tag` (0 to 65535).
  static func png(_ tag: Int) throws -> Data {
    var bytes = [UInt8](repeating: 255, count: 4 * 4 * 4)
    bytes[0] = UInt8(tag & 0xFF)
    bytes[1] = UInt8(tag >> 8)
    bytes[2] = 7
    return try CoderRegistry.shared.encode(
      Image(pixels: PixelBuffer(width: 4, height: 4, straightRGBA: bytes)), as: .png)
  }

  /// A placeholder image tagged `tag`.
  static func image(_ tag: Int) -> Image {
    var bytes = [UInt8](repeating: 255, count: 4 * 4 * 4)
    bytes[0] = UInt8(tag & 0xFF)
    bytes[1] = UInt8(tag >> 8)
    return Image(pixels: PixelBuffer(width: 4, height: 4, straightRGBA: bytes))
  }

  /// The tag of `image`.
  static func tag(_ image: Image) -> Int {
    let first = image.pixels.straightRGBA()
    return Int(first[0]) | Int(first[1]) << 8
  }
}
