import Dispatch
import Foundation

@testable import Magpie

/// GIF's coder with a frame source that counts the frames it decodes,
/// can hold a decode at a gate, and says when it is gone (after which no
/// frame of it can be decoded).
final class CountingFrameCoder: ImageCoder, Sendable {
  /// One source's frame decodes.
  final class CountingSource: ImageFrameSource {
    private let inner: any ImageFrameSource
    private let coder: CountingFrameCoder
    init(_ inner: any ImageFrameSource, coder: CountingFrameCoder) {
      self.inner = inner
      self.coder = coder
    }
    deinit { coder.sourcesGone.increment() }
    var canvasSize: PixelSize { inner.canvasSize }
    var frameCount: Int { inner.frameCount }
    var loopCount: Int { inner.loopCount }
    func duration(ofFrame index: Int) -> Duration { inner.duration(ofFrame: index) }
    func frame(at index: Int) throws(MagpieError) -> PixelBuffer {
      let held = coder.state.withLock { state -> DispatchSemaphore? in
        state.decodes += 1
        return state.decodes == state.holdAtDecode ? state.gate : nil
      }
      coder.decodesStarted.increment()
      held?.wait()
      return try inner.frame(at: index)
    }
  }

  private struct State {
    var decodes = 0
    var sources = 0
    var holdAtDecode = 0
    var gate = DispatchSemaphore(value: 0)
  }

  private let state = Lock(State())
  private let gif = GIFCoder()
  /// Incremented as each frame decode starts.
  let decodesStarted = AsyncCounter()
  /// Incremented as each source is freed.
  let sourcesGone = AsyncCounter()

  /// Frames decoded so far, by every source.
  var frameDecodes: Int { state.withLock { $0.decodes } }
  /// Sources made so far.
  var sourcesMade: Int { state.withLock { $0.sources } }

  /// Holds the `number`th frame decode (counting from 1) until ``release()``.
  func hold(atDecode number: Int) { state.withLock { $0.holdAtDecode = number } }

  /// Lets a held decode go on.
  func release() { state.withLock { $0.gate }.signal() }

  func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .gif }

  func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    try gif.decode(data, options: options)
  }

  func frameSource(for data: Data, options: DecodeOptions) throws(MagpieError) -> (any ImageFrameSource)? {
    guard let inner = try gif.frameSource(for: data, options: options) else { return nil }
    state.withLock { $0.sources += 1 }
    return CountingSource(inner, coder: self)
  }

  func canEncode(to format: ImageFormat) -> Bool { gif.canEncode(to: format) }

  func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data {
    try gif.encode(image, as: format, options: options)
  }
}
