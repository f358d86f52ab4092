/// The bounds a transform URL must stay inside, so that a hostile URL can
/// neither make the server allocate a huge canvas nor spin on its parsing.
public enum TransformURLLimits {
  /// The longest path (bytes, query excluded) parsed at all: 16 KiB.
  public static let maximumPathLength = 16 << 10
  /// The most `/`-separated option segments one URL may have.
  public static let maximumOptionCount = 64
  /// The most options applied for one URL once presets are expanded (the
  /// `default` preset included): bounds `pr:a:a:a…`.
  public static let maximumExpandedOptionCount = 1024
  /// How deep presets may name presets.
  public static let maximumPresetDepth = 8
  /// The largest ``TransformOptions/width`` and ``TransformOptions/height``,
  /// both as given and times the device pixel ratio.
  public static let maximumDimension = 16_384
  /// The largest device pixel ratio (it must also be above 0).
  public static let maximumDevicePixelRatio = 8.0
  /// The largest blur or sharpen sigma in pixels.
  public static let maximumSigma = 100.0
  /// The largest padding on one side, as given and times the device pixel
  /// ratio.
  public static let maximumPadding = 4096
  /// The largest gravity offset in pixels, either sign.
  public static let maximumGravityOffset = 16_384.0
}
