import Foundation

@testable import Magpie

/// A photo-like 256x192 JPEG for progressive-load tests, and the same
/// bytes cut before each start of scan after the first: chunk 1 holds the
/// first scan's start only, and each later chunk completes one scan.
enum ScanChunkedJPEG {
  /// The JPEG, progressive or baseline.
  static func bytes(progressive: Bool = true) throws -> [UInt8] {
    var pixels = [UInt8]()
    for y in 0..<192 {
      for x in 0..<256 { pixels += [UInt8((x * 3 + y) % 256), UInt8((x ^ y) % 256), UInt8((y * 5) % 256), 255] }
    }
    let photo = Image(pixels: PixelBuffer(width: 256, height: 192, straightRGBA: pixels))
    return [UInt8](
      try CoderRegistry.shared.encode(photo, as: .jpeg, options: EncodeOptions(quality: 90, progressive: progressive)))
  }

  /// `raw` cut before each start of scan after the first.
  static func chunks(_ raw: [UInt8]) -> [Data] {
    var cuts: [Int] = []
    for index in 0..<(raw.count - 1) where raw[index] == 0xFF && raw[index + 1] == 0xDA { cuts.append(index) }
    var chunks: [Data] = []
    var start = 0
    for cut in cuts.dropFirst() + [raw.count] {
      chunks.append(Data(raw[start..<cut]))
      start = cut
    }
    return chunks
  }

  /// The progressive JPEG, cut at its scans.
  static func progressiveChunks() throws -> [Data] { chunks(try bytes()) }
}
