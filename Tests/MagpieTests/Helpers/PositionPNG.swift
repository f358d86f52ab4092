import Foundation

@testable import Magpie

/// A PNG whose pixels encode their position (and `seed`): the pipeline
/// tests' image, different for each seed, checkable pixel by pixel.
enum PositionPNG {
  static func make(width: Int = 40, height: Int = 30, seed: Int = 0) throws -> Data {
    var bytes = [UInt8]()
    for y in 0..<height {
      for x in 0..<width { bytes += [UInt8((x * 5 + seed) % 256), UInt8((y * 7) % 256), UInt8(seed % 256), 255] }
    }
    return try CoderRegistry.shared.encode(
      Image(pixels: PixelBuffer(width: width, height: height, straightRGBA: bytes)), as: .png)
  }
}
