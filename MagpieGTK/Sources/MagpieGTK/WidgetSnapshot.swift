import CGTK4
import Magpie

/// Renders a realized widget to pixels, as a screenshot of it: the widget's
/// paintable snapshotted into a render node, rendered by the renderer of
/// the widget's window (cairo under Xvfb).
@MainActor
public enum WidgetSnapshot {
  /// The widget as a new `GdkTexture` (the caller owns it), or `nil`
  /// before it is realized or when it has no size.
  public static func texture(of widget: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer? {
    let width = gtk_widget_get_width(widget)
    let height = gtk_widget_get_height(widget)
    guard width > 0, height > 0, let native = gtk_widget_get_native(widget),
      let renderer = gtk_native_get_renderer(native)
    else { return nil }
    let paintable = gtk_widget_paintable_new(widget)
    defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
    let snapshot = gtk_snapshot_new()
    gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
    guard let node = gtk_snapshot_free_to_node(snapshot) else { return nil }
    defer { gsk_render_node_unref(node) }
    var viewport = graphene_rect_t()
    graphene_rect_init(&viewport, 0, 0, Float(width), Float(height))
    return gsk_renderer_render_texture(renderer, node, &viewport)
  }

  /// The widget's pixels, straight-alpha RGBA.
  public static func pixels(of widget: UnsafeMutablePointer<GtkWidget>) -> PixelBuffer? {
    guard let texture = texture(of: widget) else { return nil }
    defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
    return pixels(of: texture)
  }

  /// A texture's pixels, straight-alpha RGBA.
  public static func pixels(of texture: OpaquePointer) -> PixelBuffer {
    let width = Int(gdk_texture_get_width(texture))
    let height = Int(gdk_texture_get_height(texture))
    // gdk_texture_download writes cairo's ARGB32: premultiplied, B G R A
    // in memory on a little-endian machine.
    var bgra = [UInt8](repeating: 0, count: width * height * 4)
    bgra.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(width * 4)) }
    var rgba = [UInt8](repeating: 0, count: bgra.count)
    for pixel in stride(from: 0, to: bgra.count, by: 4) {
      let alpha = Int(bgra[pixel + 3])
      func straight(_ value: UInt8) -> UInt8 {
        alpha == 0 ? 0 : UInt8(min(255, (Int(value) * 255 + alpha / 2) / alpha))
      }
      rgba[pixel] = straight(bgra[pixel + 2])
      rgba[pixel + 1] = straight(bgra[pixel + 1])
      rgba[pixel + 2] = straight(bgra[pixel])
      rgba[pixel + 3] = bgra[pixel + 3]
    }
    return PixelBuffer(width: width, height: height, straightRGBA: rgba)
  }

  /// Saves `widget` as a PNG at `path`; whether it could.
  public static func savePNG(of widget: UnsafeMutablePointer<GtkWidget>, to path: String) -> Bool {
    guard let texture = texture(of: widget) else { return false }
    defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
    return gdk_texture_save_to_png(texture, path) != 0
  }
}
