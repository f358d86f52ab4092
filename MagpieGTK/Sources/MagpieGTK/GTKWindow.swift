import CGTK4

/// A top-level `GtkWindow` without pointer casts: give it a child, present
/// it, and run the main loop until it is closed.
///
/// ```swift
/// let window = GTKWindow(title: "Photos", width: 800, height: 600)
/// window.child = grid.widget
/// window.present()
/// window.runUntilClosed()
/// ```
///
/// GTK owns a top-level window and frees it when it is closed; this object
/// only watches it (a GLib weak pointer), so after ``isClosed`` its
/// accessors must not be used.
@MainActor
public final class GTKWindow {
  /// The window while it lives; GLib sets it to `nil` when it is freed.
  private let slot: UnsafeMutablePointer<gpointer?>
  /// Whether the window has been closed (destroyed).
  public private(set) var isClosed = false

  /// A new window of `width` x `height` points titled `title`. GTK must be
  /// initialised (`gtk_init`) and the main loop installed first.
  public init(title: String, width: Int, height: Int) {
    let widget = gtk_window_new()!
    slot = .allocate(capacity: 1)
    slot.initialize(to: UnsafeMutableRawPointer(widget))
    g_object_add_weak_pointer(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self), slot)
    gtk_window_set_title(pointer, title)
    gtk_window_set_default_size(pointer, Int32(width), Int32(height))
    SignalHandler.connect(UnsafeMutableRawPointer(widget), "destroy") { [weak self] in self?.isClosed = true }
  }

  isolated deinit {
    if let window = slot.pointee {
      g_object_remove_weak_pointer(window.assumingMemoryBound(to: GObject.self), slot)
    }
    slot.deallocate()
  }

  /// The window as GTK's typed pointer, for any other `gtk_window_*` call.
  public var pointer: UnsafeMutablePointer<GtkWindow> {
    guard let window = slot.pointee else { preconditionFailure("the window was closed and freed") }
    return window.assumingMemoryBound(to: GtkWindow.self)
  }

  /// The window as a widget.
  public var widget: UnsafeMutablePointer<GtkWidget> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GtkWidget.self)
  }

  /// The one widget it shows (a grid, a box, a view's `widget`).
  public var child: UnsafeMutablePointer<GtkWidget>? {
    get { gtk_window_get_child(pointer) }
    set { gtk_window_set_child(pointer, newValue) }
  }

  /// Shows the window.
  public func present() { gtk_window_present(pointer) }

  /// Closes the window, as its close button does (GTK then frees it).
  public func close() {
    guard !isClosed else { return }
    gtk_window_close(pointer)
  }

  /// Runs GLib's main loop (and with it the main actor, see
  /// ``GTKMainLoop``) until the window is closed.
  public func runUntilClosed() { GTKMainLoop.iterate(until: { isClosed }) }
}
