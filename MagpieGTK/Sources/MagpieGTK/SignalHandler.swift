import CGTK4
import CMagpieGTK

/// A Swift closure connected to a GObject signal. GLib owns one retain of
/// the handler (the user data) and drops it through the destroy notify when
/// the handler is disconnected or the instance finalized, so a handler
/// lives exactly as long as its connection.
@MainActor
public final class SignalHandler {
  /// What the signal passes besides the instance: an object, a flags value,
  /// or nothing.
  let action: (_ argument: UnsafeMutableRawPointer?, _ flags: UInt32) -> Void

  private init(_ action: @escaping (UnsafeMutableRawPointer?, UInt32) -> Void) { self.action = action }

  /// Connects `action` to a signal without arguments ("map", "clicked").
  @discardableResult
  public static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ action: @escaping () -> Void)
    -> UInt
  {
    let data = Unmanaged.passRetained(SignalHandler { _, _ in action() }).toOpaque()
    return magpie_signal_connect0(instance, signal, { _, data in SignalHandler.fire(data, nil, 0) }, data, release)
  }

  /// Connects `action` to a signal passing one object ("bind").
  @discardableResult
  public static func connect(
    _ instance: UnsafeMutableRawPointer, _ signal: String, object action: @escaping (UnsafeMutableRawPointer?) -> Void
  ) -> UInt {
    let data = Unmanaged.passRetained(SignalHandler { object, _ in action(object) }).toOpaque()
    return magpie_signal_connect_object(
      instance, signal, { _, object, data in SignalHandler.fire(data, object, 0) }, data, release)
  }

  /// Connects `action` to a signal passing flags ("state-flags-changed").
  @discardableResult
  public static func connect(
    _ instance: UnsafeMutableRawPointer, _ signal: String, flags action: @escaping (UInt32) -> Void
  )
    -> UInt
  {
    let data = Unmanaged.passRetained(SignalHandler { _, flags in action(flags) }).toOpaque()
    return magpie_signal_connect_flags(
      instance, signal, { _, flags, data in SignalHandler.fire(data, nil, flags) }, data, release)
  }

  /// Connects `action` to a click gesture's "released" or "pressed",
  /// which pass the press count and a position (the count is handed on).
  @discardableResult
  public static func connect(
    _ instance: UnsafeMutableRawPointer, _ signal: String, click action: @escaping (Int) -> Void
  ) -> UInt {
    let data = Unmanaged.passRetained(SignalHandler { _, presses in action(Int(presses)) }).toOpaque()
    return magpie_signal_connect_click(
      instance, signal, { _, presses, _, _, data in SignalHandler.fire(data, nil, UInt32(clamping: presses)) }, data,
      release)
  }

  /// Calls `action` after a `MagpieFrame`'s allocated size changed.
  static func onResize(_ frame: UnsafeMutablePointer<GtkWidget>, _ action: @escaping () -> Void) {
    let data = Unmanaged.passRetained(SignalHandler { _, _ in action() }).toOpaque()
    magpie_frame_set_resize_callback(
      frame, { _, _, _, data in SignalHandler.fire(data, nil, 0) }, data,
      { data in
        guard let data else { return }
        let handler = UInt(bitPattern: data)
        MainActor.assumeIsolated {
          Unmanaged<SignalHandler>.fromOpaque(UnsafeMutableRawPointer(bitPattern: handler)!).release()
        }
      })
  }

  /// GTK emits signals on the main thread, which is the main actor's.
  private nonisolated static func fire(
    _ data: UnsafeMutableRawPointer?, _ object: UnsafeMutableRawPointer?, _ flags: UInt32
  ) {
    guard let data else { return }
    // Plain addresses cross into the main actor; GTK emitted on its thread.
    let handler = UInt(bitPattern: data)
    let object = UInt(bitPattern: object)
    MainActor.assumeIsolated {
      let data = UnsafeMutableRawPointer(bitPattern: handler)!
      Unmanaged<SignalHandler>.fromOpaque(data).takeUnretainedValue().action(
        UnsafeMutableRawPointer(bitPattern: object), flags)
    }
  }

  private static let release: GClosureNotify = { data, _ in
    guard let data else { return }
    let handler = UInt(bitPattern: data)
    MainActor.assumeIsolated {
      Unmanaged<SignalHandler>.fromOpaque(UnsafeMutableRawPointer(bitPattern: handler)!).release()
    }
  }
}
