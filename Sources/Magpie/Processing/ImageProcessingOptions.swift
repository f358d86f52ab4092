/// What processors may need besides the item: how to decode data, and
/// whether to keep animations.
public struct ImageProcessingOptions: Sendable {
  /// The coders used when a processor receives ``ImageProcessItem/data(_:)``.
  public var registry: CoderRegistry
  /// Limits and scale for decoding data (processors add their target size).
  public var decodeOptions: DecodeOptions
  /// Process (and keep) only the first frame of animated images.
  public var firstFrameOnly: Bool

  /// Options with the shared registry, default decode limits, all frames.
  public init(
    registry: CoderRegistry = .shared, decodeOptions: DecodeOptions = DecodeOptions(), firstFrameOnly: Bool = false
  ) {
    self.registry = registry
    self.decodeOptions = decodeOptions
    self.firstFrameOnly = firstFrameOnly
  }
}
