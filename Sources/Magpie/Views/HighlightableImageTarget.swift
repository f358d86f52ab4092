/// An image view that also shows a highlighted image (UIImageView's
/// `highlightedImage`) while it is highlighted.
@MainActor
public protocol HighlightableImageTarget: ImageDisplayTarget {
  /// Shows `image` as the highlighted image.
  func displayHighlighted(_ image: Image?)
}
