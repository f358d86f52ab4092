import CGTK4
import CMagpieGTK
import Magpie

/// A `GtkButton` Magpie loads an image and a background image into per
/// `ControlState`: `button.magpie.setImage(with: url, for: .highlighted)`.
/// The button's child is an overlay of the background picture under the
/// image picture; both follow the button's GTK state flags (see
/// `ControlState.init(gtkStateFlags:)`), falling back to the
/// normal state's image, and change when "state-flags-changed" fires.
@MainActor
public final class ButtonView: ImageButtonTarget {
  /// Where the binding keeps the button's loads.
  public let imageBindingState = ImageBindingState()
  /// The spinner run while a load runs; `nil` shows none.
  public var indicator: SpinnerIndicator?

  private let button: GObjectRef
  private let imagePicture: GObjectRef
  private let backgroundPicture: GObjectRef
  private var images: [ControlState: GObjectRef] = [:]
  private var backgrounds: [ControlState: GObjectRef] = [:]
  /// The state whose images show now.
  public private(set) var shownState: ControlState = .normal

  /// A new button with an empty image and background.
  public init() {
    let button = gtk_button_new()!
    self.button = GObjectRef(sinking: UnsafeMutableRawPointer(button))
    imagePicture = GObjectRef(sinking: UnsafeMutableRawPointer(gtk_picture_new()!))
    backgroundPicture = GObjectRef(sinking: UnsafeMutableRawPointer(gtk_picture_new()!))
    gtk_picture_set_content_fit(backgroundPicture.opaque, GTK_CONTENT_FIT_COVER)
    let overlay = gtk_overlay_new()!
    gtk_overlay_set_child(OpaquePointer(overlay), backgroundPicture.as(GtkWidget.self))
    gtk_overlay_add_overlay(OpaquePointer(overlay), imagePicture.as(GtkWidget.self))
    gtk_button_set_child(self.button.as(GtkButton.self), overlay)
    SignalHandler.connect(UnsafeMutableRawPointer(button), "state-flags-changed") { [weak self] (_: UInt32) in
      self?.refresh()
    }
  }

  // Isolated: the widget references drop on the main thread, wherever the
  // last reference to this object went.
  isolated deinit {}

  /// The `GtkWidget` to put in a container.
  public var widget: UnsafeMutablePointer<GtkWidget> { button.as(GtkWidget.self) }

  /// The state GTK's flags map to now.
  public var controlState: ControlState {
    ControlState(gtkStateFlags: gtk_widget_get_state_flags(widget).rawValue)
  }

  /// Whether the button shows an image (not just a background) now.
  public var showsImage: Bool { gtk_picture_get_paintable(imagePicture.opaque) != nil }

  /// Whether the button shows a background image now.
  public var showsBackground: Bool { gtk_picture_get_paintable(backgroundPicture.opaque) != nil }

  /// The spinner, if any.
  public var imageIndicator: (any ImageIndicator)? { indicator }

  /// Keeps `image` as the image for `state`.
  public func setImage(_ image: Image?, for state: ControlState) {
    images[state] = TextureImage.texture(of: image)
    refresh()
  }

  /// Keeps `image` as the background for `state`.
  public func setBackgroundImage(_ image: Image?, for state: ControlState) {
    backgrounds[state] = TextureImage.texture(of: image)
    refresh()
  }

  /// The paintable the image picture shows now (to tell images apart).
  public var shownImageTexture: OpaquePointer? { gtk_picture_get_paintable(imagePicture.opaque) }

  private func refresh() {
    let state = controlState
    shownState = state
    let image = images[state] ?? images[.normal]
    let background = backgrounds[state] ?? backgrounds[.normal]
    gtk_picture_set_paintable(imagePicture.opaque, image.map { magpie_paintable($0.pointer) })
    gtk_picture_set_paintable(backgroundPicture.opaque, background.map { magpie_paintable($0.pointer) })
  }
}
