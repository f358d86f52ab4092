/// An activity indicator shown while an image loads (SDWebImage's
/// SDWebImageIndicator): a spinner widget, say.
@MainActor
public protocol ImageIndicator: AnyObject {
  /// A load started.
  func startAnimating()
  /// The load ended (loaded, failed, cancelled or replaced).
  func stopAnimating()
}
