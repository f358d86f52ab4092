/// How a binding shows a load in its target (SDWebImageOptions' view
/// part); the request's own ``ImageLoadingOptions`` say how it loads.
public struct ImageDisplayOptions: OptionSet, Sendable, Hashable {
  /// The bits.
  public let rawValue: Int

  /// Options from raw bits.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Show the placeholder only if the load fails, not while it runs.
  public static let delayPlaceholder = ImageDisplayOptions(rawValue: 1 << 0)
  /// Do not set the loaded image: hand it to the completion only.
  public static let avoidAutoSetImage = ImageDisplayOptions(rawValue: 1 << 1)
  /// Run the target's transition even for an image from the memory cache.
  public static let forceTransition = ImageDisplayOptions(rawValue: 1 << 2)
  /// Do not play an animated image; show its first frame.
  public static let doNotAnimate = ImageDisplayOptions(rawValue: 1 << 3)
}
