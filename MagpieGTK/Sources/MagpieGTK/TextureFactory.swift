import CGTK4
import CMagpieGTK
import Magpie

/// Makes `GdkTexture`s from Magpie's pixel buffers without copying pixels.
///
/// `gdk_memory_texture_new` takes the rows as a `GBytes` and requires only
/// that they never change while the texture lives (GDK may read them at any
/// time, upload them to the GPU, or convert them for a renderer that wants
/// another format, but never writes them) and that the stride covers a row.
/// A `PixelBuffer`'s bytes are an immutable array once built, so the
/// `GBytes` points into the array's own storage and keeps it alive with one
/// retain, dropped by GLib's free function when the texture goes.
public enum TextureFactory {
  /// Holds the array whose storage a `GBytes` points into.
  private final class Storage {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
  }

  /// A texture showing `pixels` (straight or premultiplied RGBA8, as the
  /// buffer says); `nil` for an empty buffer. The caller owns the returned
  /// reference.
  public static func texture(for pixels: PixelBuffer) -> OpaquePointer? {
    guard pixels.width > 0, pixels.height > 0, !pixels.bytes.isEmpty else { return nil }
    let storage = Storage(pixels.bytes)
    // An array held in a class and never mutated keeps one contiguous
    // buffer for its whole life, so the address stays valid after the
    // closure returns.
    let base = storage.bytes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress!) }
    let bytes = g_bytes_new_with_free_func(
      base, gsize(storage.bytes.count), { Unmanaged<Storage>.fromOpaque($0!).release() },
      Unmanaged.passRetained(storage).toOpaque())
    defer { g_bytes_unref(bytes) }
    let format =
      pixels.alphaRepresentation == .premultiplied ? GDK_MEMORY_R8G8B8A8_PREMULTIPLIED : GDK_MEMORY_R8G8B8A8
    return gdk_memory_texture_new(Int32(pixels.width), Int32(pixels.height), format, bytes, gsize(pixels.bytesPerRow))
  }
}
