import CGTK4
import Magpie

/// A `GtkSpinner` as a load's `ImageIndicator`: shown and spinning while
/// a load runs, hidden otherwise.
@MainActor
public final class SpinnerIndicator: ImageIndicator {
  private let spinner: GObjectRef

  /// A new, hidden spinner.
  public init() {
    let widget = gtk_spinner_new()!
    spinner = GObjectRef(sinking: UnsafeMutableRawPointer(widget))
    gtk_widget_set_visible(widget, 0)
  }

  // Isolated: the widget references drop on the main thread, wherever the
  // last reference to this object went.
  isolated deinit {}

  /// The `GtkWidget` to put over the image (a `GtkOverlay` child, say).
  public var widget: UnsafeMutablePointer<GtkWidget> { spinner.as(GtkWidget.self) }

  /// Whether it spins now.
  public var isAnimating: Bool { gtk_spinner_get_spinning(spinner.opaque) != 0 }

  /// Shows it and starts spinning.
  public func startAnimating() {
    gtk_widget_set_visible(widget, 1)
    gtk_spinner_start(spinner.opaque)
  }

  /// Stops spinning and hides it.
  public func stopAnimating() {
    gtk_spinner_stop(spinner.opaque)
    gtk_widget_set_visible(widget, 0)
  }
}
