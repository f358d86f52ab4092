/// An activity indicator shown while an image loads (SDWebImage's
/// SDWebImageIndicator): a spinner widget, or a progress bar that also
/// takes ``setProgress(_:)``.
@MainActor
public protocol ImageIndicator: AnyObject {
  /// A load started.
  func startAnimating()
  /// The load ended (loaded, failed, cancelled or replaced).
  func stopAnimating()
  /// More bytes of the running load arrived (a fraction of 0 when the
  /// server did not say how many to expect). Default: nothing.
  func setProgress(_ progress: ImageTask.Progress)
}

extension ImageIndicator {
  /// Progress is not shown.
  public func setProgress(_ progress: ImageTask.Progress) {}
}
