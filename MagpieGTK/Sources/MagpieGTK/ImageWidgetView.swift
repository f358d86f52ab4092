import CGTK4
import CMagpieGTK
import Magpie

/// A `GtkImage` (an icon-sized image at a fixed pixel size) Magpie loads
/// into. Shows still images and the first frame of animations, which play
/// on the widget's frame clock. Loads ask for its pixel size times its
/// scale factor (`ImageBinding.loadsAtDisplaySize`), fitted.
@MainActor
public final class ImageWidgetView: ImageDisplayTarget {
  /// Where the binding keeps this view's loads.
  public let imageBindingState = ImageBindingState()
  private let image: GObjectRef
  private let frameClock: WidgetFrameClock
  private var texture: GObjectRef?

  /// A new `GtkImage` showing images at `pixelSize` (GTK scales to it).
  public init(pixelSize: Int32 = 48) {
    let widget = gtk_image_new()!
    image = GObjectRef(sinking: UnsafeMutableRawPointer(widget))
    gtk_image_set_pixel_size(OpaquePointer(widget), pixelSize)
    imageBindingState.loadsAtDisplaySize = true
    frameClock = WidgetFrameClock(widget: widget)
    VisibilityTracker.track(UnsafeMutableRawPointer(widget)) { [weak self] visible in
      self?.magpie.isVisible = visible
    }
  }

  isolated deinit {
    frameClock.stop()
  }

  /// The `GtkWidget` to put in a container.
  public var widget: UnsafeMutablePointer<GtkWidget> { image.as(GtkWidget.self) }

  /// Its pixel size times its scale factor, as a square.
  public var displayPixelSize: PixelSize? {
    let side = Int(gtk_image_get_pixel_size(image.opaque) * max(1, gtk_widget_get_scale_factor(widget)))
    return side > 0 ? PixelSize(width: side, height: side) : nil
  }

  /// Whether it shows a texture now.
  public var hasImage: Bool { texture != nil }

  /// Shows `image`.
  public func display(_ image: Image?) {
    setTexture(TextureImage.texture(of: image))
  }

  /// The widget's frame clock: animations play.
  public var animationClock: (any FrameClock)? { frameClock }

  /// Shows one animation frame.
  public func displayAnimationFrame(_ frame: PixelBuffer, index: Int) {
    setTexture(TextureImage.texture(of: frame))
  }

  private func setTexture(_ texture: GObjectRef?) {
    self.texture = texture
    gtk_image_set_from_paintable(image.opaque, texture.map { magpie_paintable($0.pointer) })
  }
}
