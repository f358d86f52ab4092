import CGTK4

/// A `GtkBox` without pointer casts: views in a row or a column.
@MainActor
public final class GTKBox {
  /// Which way a box lays out its children.
  public enum Axis: Sendable {
    /// Left to right.
    case horizontal
    /// Top to bottom.
    case vertical
  }

  private let box: GObjectRef

  /// A new box laying its children out along `axis`, `spacing` points apart.
  public init(_ axis: Axis, spacing: Int = 0) {
    let orientation = axis == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL
    let widget = gtk_box_new(orientation, Int32(spacing))!
    box = GObjectRef(sinking: UnsafeMutableRawPointer(widget))
  }

  /// The box as GTK's typed pointer, for any other `gtk_box_*` call.
  public var pointer: UnsafeMutablePointer<GtkBox> { box.as(GtkBox.self) }

  /// The box as a widget, to put in a window, a grid or another box.
  public var widget: UnsafeMutablePointer<GtkWidget> { box.as(GtkWidget.self) }

  /// Adds `child` after the box's last child.
  public func append(_ child: UnsafeMutablePointer<GtkWidget>) { gtk_box_append(pointer, child) }
}
