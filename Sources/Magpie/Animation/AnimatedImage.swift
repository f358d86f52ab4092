import Foundation

/// An animation ready to play without decoding it whole (SDWebImage's
/// SDAnimatedImage): made from its encoded bytes, it knows its frame count,
/// durations, loop count and canvas from the headers, and its poster (first)
/// frame; the rest is decoded on demand by a frame source into one
/// ``AnimationFrameBuffer`` that every player of this image shares.
/// ``applying(_:options:)`` adds processors that run on each frame as it
/// is decoded.
///
/// ```swift
/// let animation = try AnimatedImage(data: gifBytes)
/// let player = try animation.makePlayer(clock: TimerFrameClock(), target: view)
/// player.start()
/// ```
///
/// An ``Image`` carries one as its ``Image/animation`` when it was loaded
/// with ``DecodeOptions/decodesFramesOnDemand``.
public final class AnimatedImage: Sendable {
  /// The encoded bytes.
  public let data: Data
  /// The format of ``data``.
  public let format: ImageFormat
  /// Frame durations and loop count, as a player uses them.
  public let timeline: AnimationTimeline
  /// The size of every frame (after ``processors``).
  public let canvasSize: PixelSize
  /// The first frame (after ``processors``), decoded when the image was made.
  public let posterFrame: PixelBuffer
  /// The budget of the shared frame buffer.
  public let budgetBytes: Int
  /// What runs on every frame after it is decoded, in order.
  public let processors: [any ImageProcessor]
  /// Each frame's duration as the format stores it (the eager decode's
  /// ``ImageFrame/duration``), before the player's minimum.
  let frameDurations: [Duration]
  let loopCount: Int
  private let processingOptions: ImageProcessingOptions
  private let registry: CoderRegistry
  private let options: DecodeOptions
  private let monitor: MemoryPressureMonitor?
  private let sharedBuffer = Lock<WeakBuffer>(WeakBuffer())
  // The source that read the headers and the poster, kept for the first
  // buffer or frame reader (it has frame 0 decoded already). Handed over
  // once, never used from two places, so it need not be Sendable.
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
  public convenience init(
    data: Data, registry: CoderRegistry = .shared, options: DecodeOptions = DecodeOptions(),
    budgetBytes: Int = AnimationFrameBuffer.defaultBudget, monitor: MemoryPressureMonitor? = .shared
  ) throws(MagpieError) {
    guard let source = try registry.frameSource(for: data, options: options) else {
      throw MagpieError(.unsupportedFormat, "the \(ImageFormat.sniff(data).rawValue) data is not an animation")
    }
    try self.init(
      data: data, source: source, registry: registry, options: options, budget: budgetBytes, monitor: monitor)
  }

  /// The animation `source` reads from `data` (see the public init).
  init(
    data: Data, source: any ImageFrameSource, registry: CoderRegistry, options: DecodeOptions, budget: Int,
    monitor: MemoryPressureMonitor?
  ) throws(MagpieError) {
    self.data = data
    format = ImageFormat.sniff(data)
    self.registry = registry
    self.options = options
    budgetBytes = budget
    self.monitor = monitor
    processors = []
    processingOptions = ImageProcessingOptions(registry: registry, decodeOptions: options)
    canvasSize = source.canvasSize
    frameDurations = (0..<source.frameCount).map { source.duration(ofFrame: $0) }
    loopCount = source.loopCount
    timeline = AnimationTimeline(durations: frameDurations, loopCount: loopCount)
    posterFrame = SRGBConversion.converted(try source.frame(at: 0), profile: source.colorProfile, options: options)
    unusedSource = Lock(UncheckedSendable(source))
  }

  private init(
    _ base: AnimatedImage, processors: [any ImageProcessor], options: ImageProcessingOptions, poster: PixelBuffer
  ) {
    data = base.data
    format = base.format
    registry = base.registry
    self.options = base.options
    budgetBytes = base.budgetBytes
    monitor = base.monitor
    self.processors = processors
    processingOptions = options
    canvasSize = poster.size
    frameDurations = base.frameDurations
    loopCount = base.loopCount
    timeline = base.timeline
    posterFrame = poster
    unusedSource = Lock(nil)
  }

  /// This animation with `processors` run on every frame after this one's
  /// own, as each frame is decoded; the poster frame is processed now (and
  /// throws what a processor throws). Every frame must come out the size
  /// the poster does.
  public func applying(
    _ processors: [any ImageProcessor], options: ImageProcessingOptions = ImageProcessingOptions()
  ) throws(MagpieError) -> AnimatedImage {
    guard !processors.isEmpty else { return self }
    let poster = try Self.process(posterFrame, with: processors, options: options)
    return AnimatedImage(self, processors: self.processors + processors, options: options, poster: poster)
  }

  /// What a memory cache holding this animation is charged besides the
  /// poster frame: the encoded bytes and the frame buffer at its budget
  /// (or all frames, when they take less), not every frame decoded.
  public var retainedByteCount: Int {
    let allFrames = timeline.frameCount * max(1, canvasSize.width * canvasSize.height * 4)
    return data.count + min(budgetBytes, allFrames)
  }

  /// The frame buffer every player of this image shares: the one a live
  /// player already uses, or a new one.
  public func frameBuffer() throws(MagpieError) -> AnimationFrameBuffer {
    if let live = sharedBuffer.withLock({ $0.buffer }) { return live }
    let decode = try frameDecoder()
    let buffer = AnimationFrameBuffer(
      frameCount: timeline.frameCount, frameSize: canvasSize, budgetBytes: budgetBytes, monitor: monitor,
      decoder: decode)
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

  /// The frames in order with their durations, decoded one at a time as
  /// they are asked for (what encoders stream from).
  func sequentialFrames() throws(MagpieError) -> SequentialFrames {
    SequentialFrames(decode: try frameDecoder(), durations: frameDurations)
  }

  /// Frame N decoded and processed, over the source that read the headers
  /// the first time and a fresh one after that.
  private func frameDecoder() throws(MagpieError) -> sending (Int) throws(MagpieError) -> PixelBuffer {
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
    let processors = processors
    let options = processingOptions
    let canvas = canvasSize
    let decodeOptions = self.options
    return { index throws(MagpieError) in
      let frame = SRGBConversion.converted(
        try source.frame(at: index), profile: source.colorProfile, options: decodeOptions)
      guard !processors.isEmpty else { return frame }
      let processed = try Self.process(frame, with: processors, options: options)
      guard processed.size == canvas else {
        throw MagpieError(.processingFailed, "frame \(index) came out \(processed.size), the poster \(canvas)")
      }
      return processed
    }
  }

  private static func process(
    _ frame: PixelBuffer, with processors: [any ImageProcessor], options: ImageProcessingOptions
  ) throws(MagpieError) -> PixelBuffer {
    var image = Image(pixels: frame)
    for processor in processors {
      image = try processor.processNamingFailures(item: .image(image), options: options)
    }
    return image.pixels
  }
}
