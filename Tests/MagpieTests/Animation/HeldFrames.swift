@testable import Magpie

/// A frame provider whose frames are ready only once released, like a
/// frame buffer still decoding.
final class HeldFrames: AnimationFrameProvider {
  private let ready = Lock<Set<Int>>([0])
  private let frame = PixelBuffer(width: 1, height: 1)

  /// Makes frame `index` ready.
  func release(_ index: Int) { ready.withLock { _ = $0.insert(index) } }

  func frameIfReady(_ index: Int) -> PixelBuffer? {
    ready.withLock { $0.contains(index) } ? frame : nil
  }
}
