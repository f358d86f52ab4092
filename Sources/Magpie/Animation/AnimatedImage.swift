import Foundation

/// An animation ready to play without decoding it whole (SDWebImage's
/// SDAnimatedImage): made from its encoded bytes, it knows its frame count,
/// durations, loop count and canvas from the headers, and its poster (first)
/// frame; the rest is decoded on demand by a frame source into one
/// ``AnimationFrameBuffer`` that every player of this image shares.
///
/// ```swift
/// let animation = try AnimatedImage(data: gifBytes)
/// let player = animation.makePlayer(clock: TimerFrameClock(), target: view)
/// player.start()
/// ```
public final class AnimatedImage: Sendable {
  /// The encoded bytes.
  public let data: Data
  /// Frame durations and loop count.
  public let timeline: AnimationTimeline
  /// The size of every frame.
  public let canvasSize: PixelSize
  /// The first frame, decoded when the image was made.
  public let posterFrame: PixelBuffer
  /// The budget of the shared frame buffer.
  public let budgetBytes: Int
  private let registry: CoderRegistry
  private let options: DecodeOptions
  private let monitor: MemoryPressureMonitor?
  private let sharedBuffer = Lock<WeakBuffer>(WeakBuffer())
  // The source that read the headers and the poster, kept for the first
  // buffer (it has frame 0 decoded already). Handed over once, never used
  // from two places, so it need not be Sendable.
  private let unusedSource: Lock<UncheckedSendable<any ImageFrameSource>?>

  /// The buffer players share while any of them lives.
  private struct WeakBuffer {
    weak var buffer: AnimationFrameBuffer?
  }

  /// The animation in `data`, read through `registry`'s frame source with
  /// `options` (the pixel limit is checked against the canvas), its frames
  /// buffered within `budgetBytes` and `monitor`'s memory pressure. Throws
  /// ``MagpieError/Code/unsupportedFormat`` for a still image or a format
  /// without a frame source, and what decoding the poster frame throws.
  public init(
    data: Data, registry: CoderRegistry = .shared, options: DecodeOptions = DecodeOptions(),
    budgetBytes: Int = AnimationFrameBuffer.defaultBudget, monitor: MemoryPressureMonitor? = .shared
  ) throws(MagpieError) {
    guard let source = try registry.frameSource(for: data, options: options) else {
      throw MagpieError(.unsupportedFormat, "the \(ImageFormat.sniff(data).rawValue) data is not an animation")
    }
    self.data = data
    self.registry = registry
    self.options = options
    self.budgetBytes = budgetBytes
    self.monitor = monitor
    canvasSize = source.canvasSize
    timeline = AnimationTimeline(source)
    posterFrame = try source.frame(at: 0)
    unusedSource = Lock(UncheckedSendable(source))
  }

  /// The frame buffer every player of this image shares: the one a live
  /// player already uses, or a new one (over the source that read the
  /// headers the first time, a fresh frame source after that).
  public func frameBuffer() throws(MagpieError) -> AnimationFrameBuffer {
    if let live = sharedBuffer.withLock({ $0.buffer }) { return live }
    let source: any ImageFrameSource
    if let unused = unusedSource.withLock({ spare -> UncheckedSendable<any ImageFrameSource>? in
      defer { spare = nil }
      return spare
    }) {
      source = unused.value
    } else if let fresh = try registry.frameSource(for: data, options: options) {
      source = fresh
    } else {
      throw MagpieError(.unsupportedFormat, "the animation's frame source went away")
    }
    let buffer = Self.buffer(
      over: source, canvas: canvasSize, count: timeline.frameCount, budget: budgetBytes, monitor: monitor)
    return sharedBuffer.withLock { shared in
      if let live = shared.buffer { return live }
      shared.buffer = buffer
      return buffer
    }
  }

  /// A stopped player of this animation into `target`, on the shared buffer.
  public func makePlayer(clock: any FrameClock, target: any AnimationTarget) throws(MagpieError) -> AnimationPlayer {
    AnimationPlayer(timeline: timeline, frames: try frameBuffer(), clock: clock, target: target)
  }

  private static func buffer(
    over source: sending any ImageFrameSource, canvas: PixelSize, count: Int, budget: Int,
    monitor: MemoryPressureMonitor?
  ) -> AnimationFrameBuffer {
    AnimationFrameBuffer(frameCount: count, frameSize: canvas, budgetBytes: budget, monitor: monitor) {
      index throws(MagpieError) in try source.frame(at: index)
    }
  }
}
