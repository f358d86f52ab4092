import Foundation
import Testing

@testable import Magpie

/// Checks a frame source against the eager decode of the same bytes: header
/// facts, and every frame pixel for pixel asked in order, in reverse and in
/// a shuffled order, each time from a fresh source.
enum FrameSourceExpectations {
  /// Orders to ask `count` frames in: forward, backward, and two shuffles.
  static func orders(_ count: Int) -> [[Int]] {
    var random = SplitMix64(seed: UInt64(count) &* 7919)
    let forward = Array(0..<count)
    return [forward, forward.reversed(), forward.shuffled(using: &random), forward.shuffled(using: &random)]
  }

  /// Expects `coder`'s frame source for `data` to agree with its eager
  /// decode; returns the eager image.
  @discardableResult
  static func expectMatchesEager(
    _ data: Data, coder: any ImageCoder, options: DecodeOptions = DecodeOptions(), _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Image {
    let image = try coder.decode(data, options: options)
    for order in orders(image.frames.count) {
      let source = try #require(
        try coder.frameSource(for: data, options: options), "\(label): no frame source", sourceLocation: sourceLocation)
      #expect(source.frameCount == image.frames.count, "\(label): frame count", sourceLocation: sourceLocation)
      #expect(source.loopCount == image.loopCount, "\(label): loop count", sourceLocation: sourceLocation)
      #expect(source.canvasSize == image.pixelSize, "\(label): canvas", sourceLocation: sourceLocation)
      for index in image.frames.indices {
        #expect(
          source.duration(ofFrame: index) == image.frames[index].duration, "\(label): duration of \(index)",
          sourceLocation: sourceLocation)
      }
      for index in order {
        let pixels = try source.frame(at: index)
        let expected = image.frames[index].pixels
        #expect(pixels.size == expected.size, "\(label): size of frame \(index)", sourceLocation: sourceLocation)
        #expect(
          pixels.straightRGBA() == expected.straightRGBA(), "\(label): frame \(index) in order \(order.prefix(8))",
          sourceLocation: sourceLocation)
        #expect(
          pixels.alphaRepresentation == .straight && pixels.isOpaque == expected.isOpaque,
          "\(label): alpha of frame \(index)", sourceLocation: sourceLocation)
      }
    }
    return image
  }

  /// How many frames `source` has decoded so far (the internal counter of
  /// the three built-in sources).
  static func decodedCount(_ source: any ImageFrameSource) -> Int {
    switch source {
    case let gif as GIFFrameSource: gif.decodedFrameCount
    case let apng as APNGFrameSource: apng.decodedFrameCount
    case let webp as WebPFrameSource: webp.decodedFrameCount
    default: -1
    }
  }
}
