import CGTK4

/// A `GtkGrid` without pointer casts: views placed by column and row.
@MainActor
public final class GTKGrid {
  private let grid: GObjectRef

  /// A new grid with `spacing` points between its rows and its columns;
  /// with `homogeneous`, every cell gets the same size.
  public init(spacing: Int = 0, homogeneous: Bool = false) {
    let widget = gtk_grid_new()!
    grid = GObjectRef(sinking: UnsafeMutableRawPointer(widget))
    gtk_grid_set_row_spacing(pointer, UInt32(max(0, spacing)))
    gtk_grid_set_column_spacing(pointer, UInt32(max(0, spacing)))
    gtk_grid_set_row_homogeneous(pointer, homogeneous ? 1 : 0)
    gtk_grid_set_column_homogeneous(pointer, homogeneous ? 1 : 0)
  }

  /// The grid as GTK's typed pointer, for any other `gtk_grid_*` call.
  public var pointer: UnsafeMutablePointer<GtkGrid> { grid.as(GtkGrid.self) }

  /// The grid as a widget, to put in a window or a box.
  public var widget: UnsafeMutablePointer<GtkWidget> { grid.as(GtkWidget.self) }

  /// Places `child` at `column`, `row`, spanning `width` x `height` cells.
  public func attach(
    _ child: UnsafeMutablePointer<GtkWidget>, column: Int, row: Int, width: Int = 1, height: Int = 1
  ) {
    gtk_grid_attach(pointer, child, Int32(column), Int32(row), Int32(width), Int32(height))
  }
}
