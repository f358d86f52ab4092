import Foundation

@testable import Magpie

/// A processor that counts its passes (in a counter its copies share) and
/// tints the image by `tag`, so each chain's output is its own.
struct CountingProcessor: ImageProcessor {
  /// Passes counted so far, over every processor sharing it.
  final class Passes: Sendable {
    private let count = Lock(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
  }

  var tag: UInt8
  var passes: Passes

  var identifier: String { "test.count(\(tag))" }

  func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
    passes.increment()
    let tag = self.tag
    return try item.mapFrames(processor: identifier, options: options) { pixels in
      var copy = pixels
      copy.withUnsafeMutableBytes(keepsOpaque: true) { raw in
        for i in stride(from: 0, to: raw.count, by: 4) { raw[i] = tag }
      }
      return copy
    }
  }
}
