import CGTK4
import Foundation
import Magpie
import Synchronization

/// A `FrameClock` on a widget's `GdkFrameClock`: a tick callback on the
/// widget calls the handler once per frame GTK draws, with the frame time.
/// GTK runs tick callbacks only while the widget is mapped, and ``stop()``
/// removes the callback, so no ticks arrive while stopped.
///
/// `@unchecked Sendable`: the state sits behind a mutex, and the widget is
/// touched only on the main thread (``start(_:)`` and ``stop()`` from
/// elsewhere hop there).
public final class WidgetFrameClock: FrameClock, @unchecked Sendable {
  private struct State {
    var handler: (@Sendable (Duration) -> Void)?
    var callbackID: UInt32 = 0
  }

  private let widget: UnsafeMutablePointer<GtkWidget>
  private let state = Mutex(State())

  /// A clock on `widget`'s frame clock; the widget must outlive the clock
  /// (its owner holds both).
  public init(widget: UnsafeMutablePointer<GtkWidget>) {
    self.widget = widget
  }

  /// Ticks `handler` once per frame from now on.
  public func start(_ handler: @escaping @Sendable (Duration) -> Void) {
    state.withLock { $0.handler = handler }
    onMain { $0.addCallback() }
  }

  /// Stops the ticks.
  public func stop() {
    state.withLock { $0.handler = nil }
    onMain { $0.removeCallback() }
  }

  /// Whether ticks are running (for tests).
  public var isTicking: Bool { state.withLock { $0.callbackID != 0 } }

  private func onMain(_ body: @escaping @Sendable (WidgetFrameClock) -> Void) {
    if Thread.isMainThread {
      body(self)
    } else {
      DispatchQueue.main.async { body(self) }
    }
  }

  private func addCallback() {
    guard state.withLock({ $0.handler != nil && $0.callbackID == 0 }) else { return }
    // GTK holds the clock while the callback is registered and drops it
    // through the destroy notify when the callback goes.
    let data = Unmanaged.passRetained(self).toOpaque()
    let id = gtk_widget_add_tick_callback(
      widget,
      { _, frameClock, data in
        let clock = Unmanaged<WidgetFrameClock>.fromOpaque(data!).takeUnretainedValue()
        return clock.tick(frameTime: Int64(gdk_frame_clock_get_frame_time(frameClock))) ? 1 : 0
      }, data, { Unmanaged<WidgetFrameClock>.fromOpaque($0!).release() })
    state.withLock { $0.callbackID = id }
  }

  /// One frame at `frameTime` (microseconds, monotonic); whether to keep
  /// ticking.
  private func tick(frameTime: Int64) -> Bool {
    guard let handler = state.withLock({ $0.handler }) else {
      // Stopped from another thread before the hop removed the callback.
      state.withLock { $0.callbackID = 0 }
      return false
    }
    handler(.microseconds(frameTime))
    return true
  }

  private func removeCallback() {
    let id = state.withLock { state in
      defer { state.callbackID = 0 }
      return state.callbackID
    }
    if id != 0 { gtk_widget_remove_tick_callback(widget, id) }
  }
}
