import CGTK4

/// A strong reference to a GObject: sinks a floating reference (a new
/// widget's) and drops it on deinit. Widgets are only touched on the main
/// thread, so the last release happens there too: every holder is a
/// main-actor object.
final class GObjectRef {
  /// The object.
  let pointer: UnsafeMutableRawPointer

  /// Takes a reference to `object`, sinking a floating one.
  init(sinking object: UnsafeMutableRawPointer) {
    pointer = object
    g_object_ref_sink(object)
  }

  /// Adopts a reference the caller already owns (a texture just created).
  init(adopting object: UnsafeMutableRawPointer) {
    pointer = object
  }

  deinit {
    g_object_unref(pointer)
  }

  /// The object as an opaque GTK pointer (GtkPicture, GdkTexture and the
  /// other types whose struct GTK keeps private).
  var opaque: OpaquePointer { OpaquePointer(pointer) }

  /// The object as a typed GTK pointer.
  func `as`<T>(_: T.Type) -> UnsafeMutablePointer<T> {
    pointer.assumingMemoryBound(to: T.self)
  }
}
