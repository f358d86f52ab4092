import CGTK4

/// Connects a widget's "map" and "unmap" to a visibility setter: a
/// binding's animation pauses while its widget is off screen (a recycled
/// grid cell, a hidden page) and resumes when it is shown again.
@MainActor
enum VisibilityTracker {
  /// Calls `setVisible` with `true` on every "map" of `widget` and `false`
  /// on every "unmap".
  static func track(_ widget: UnsafeMutableRawPointer, _ setVisible: @escaping @MainActor (Bool) -> Void) {
    SignalHandler.connect(widget, "map") { setVisible(true) }
    SignalHandler.connect(widget, "unmap") { setVisible(false) }
  }
}
