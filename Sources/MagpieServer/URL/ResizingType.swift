/// How ``TransformOptions`` fits an image into its target size
/// (imgproxy's resizing types).
public enum ResizingType: String, Sendable, Hashable, CaseIterable {
  /// Scale to fit inside the size, keeping the aspect ratio.
  case fit
  /// Scale to cover the size, keeping the aspect ratio, then crop the rest
  /// by the gravity.
  case fill
  /// As `fill`, but never enlarged: a smaller source is cropped to the
  /// target's aspect ratio at its own scale.
  case fillDown = "fill-down"
  /// Scale to exactly the size, changing the aspect ratio.
  case force
}
