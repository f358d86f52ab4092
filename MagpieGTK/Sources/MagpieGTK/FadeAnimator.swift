import CGTK4

/// Fades a widget in by ramping its opacity from 0 to 1 over a duration,
/// on the widget's frame clock (GTK's own animation time, so it keeps pace
/// with drawing and stops while the widget is unmapped).
@MainActor
final class FadeAnimator {
  private let widget: UnsafeMutablePointer<GtkWidget>
  private var callbackID: UInt32 = 0
  private var start: Int64?
  private var duration: Int64 = 0

  init(widget: UnsafeMutablePointer<GtkWidget>) { self.widget = widget }

  /// Starts a fade-in over `duration`, replacing any fade running.
  func fadeIn(over duration: Duration) {
    cancel()
    let (seconds, attoseconds) = duration.components
    self.duration = max(1, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    start = nil
    gtk_widget_set_opacity(widget, 0)
    // The widget holds the animator's wrapper, which outlives the callback:
    // cancel() runs before the wrapper goes.
    callbackID = gtk_widget_add_tick_callback(
      widget,
      { _, frameClock, data in
        let animator = Unmanaged<FadeAnimator>.fromOpaque(data!).takeUnretainedValue()
        return MainActor.assumeIsolated { animator.step(Int64(gdk_frame_clock_get_frame_time(frameClock))) } ? 1 : 0
      }, Unmanaged.passRetained(self).toOpaque(), { Unmanaged<FadeAnimator>.fromOpaque($0!).release() })
  }

  /// Whether a fade is running.
  var isFading: Bool { callbackID != 0 }

  /// Ends any fade, fully opaque.
  func cancel() {
    if callbackID != 0 { gtk_widget_remove_tick_callback(widget, callbackID) }
    callbackID = 0
    gtk_widget_set_opacity(widget, 1)
  }

  private func step(_ now: Int64) -> Bool {
    let begin = start ?? now
    start = begin
    let progress = min(1, Double(now - begin) / Double(duration))
    gtk_widget_set_opacity(widget, progress)
    if progress >= 1 { callbackID = 0 }
    return progress < 1
  }
}
