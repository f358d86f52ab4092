import CGTK4
import Magpie

/// A `GtkProgressBar` as a load's `ImageIndicator`: shown while a load
/// runs, filled to the fraction of the bytes received (pulsing while the
/// server has not said how many to expect), hidden otherwise. Put its
/// ``widget`` over the image, beside or instead of a ``SpinnerIndicator``.
@MainActor
public final class ProgressIndicator: ImageIndicator {
  private let bar: GObjectRef

  /// A new, hidden progress bar.
  public init() {
    let widget = gtk_progress_bar_new()!
    bar = GObjectRef(sinking: UnsafeMutableRawPointer(widget))
    gtk_widget_set_visible(widget, 0)
  }

  // Isolated: the widget reference drops on the main thread.
  isolated deinit {}

  /// The `GtkWidget` to put over the image (a `GtkOverlay` child, say).
  public var widget: UnsafeMutablePointer<GtkWidget> { bar.as(GtkWidget.self) }

  /// The fraction it shows, 0 to 1.
  public var fraction: Double { gtk_progress_bar_get_fraction(bar.opaque) }

  /// Whether it shows now.
  public var isVisible: Bool { gtk_widget_get_visible(widget) != 0 }

  /// Shows it, empty.
  public func startAnimating() {
    gtk_progress_bar_set_fraction(bar.opaque, 0)
    gtk_widget_set_visible(widget, 1)
  }

  /// Hides it.
  public func stopAnimating() {
    gtk_widget_set_visible(widget, 0)
  }

  /// Fills it to `progress`'s fraction, or pulses when the total is unknown.
  public func setProgress(_ progress: ImageTask.Progress) {
    if progress.total == nil {
      gtk_progress_bar_pulse(bar.opaque)
    } else {
      gtk_progress_bar_set_fraction(bar.opaque, progress.fraction)
    }
  }
}
