@testable import Magpie

/// An animation target that records which frames it was shown.
final class RecordingTarget: AnimationTarget {
  private let shown = Lock<[Int]>([])

  /// The frame indices shown so far, in order.
  var frames: [Int] { shown.withLock { $0 } }

  func show(_ frame: PixelBuffer, index: Int) {
    shown.withLock { $0.append(index) }
  }
}
