import CGTK4
import CMagpieGTK
import Magpie

/// A `GtkPicture` Magpie loads into: `picture.magpie.setImage(with: url)`.
/// Animated images play on the widget's frame clock and pause while it is
/// unmapped; a `.fade` transition fades the picture in; a highlighted image
/// shows instead of the image while ``isHighlighted`` is set; a click while
/// its last load has failed loads it again.
@MainActor
public final class PictureView: HighlightableImageTarget {
  /// Where the binding keeps this view's loads.
  public let imageBindingState = ImageBindingState()
  /// The spinner run while a load runs; `nil` shows none.
  public var indicator: SpinnerIndicator?
  /// Whether the highlighted image (when there is one) shows.
  public var isHighlighted = false {
    didSet { showCurrent() }
  }

  private let picture: GObjectRef
  private let frameClock: WidgetFrameClock
  private let fader: FadeAnimator
  private var texture: GObjectRef?
  private var highlightedTexture: GObjectRef?
  /// The image shown last (not an animation frame).
  public private(set) var shownImage: Image?
  /// How many animation frames it has shown.
  public private(set) var animationFramesShown = 0
  /// Whether a fade transition is running.
  public var isTransitioning: Bool { fader.isFading }
  /// Whether a click on the view while its last load has failed (its
  /// failure image showing) loads it again, as
  /// ``Magpie/ImageBinding/retryFailedLoad(forKey:)`` does; on by default.
  public var retriesFailedLoadOnClick = true
  /// The click gesture the view listens to (the widget owns it).
  public let clickGesture: OpaquePointer

  /// A new `GtkPicture`, scaled to cover its allocation.
  public init() {
    let widget = gtk_picture_new()!
    picture = GObjectRef(sinking: UnsafeMutableRawPointer(widget))
    gtk_picture_set_content_fit(OpaquePointer(widget), GTK_CONTENT_FIT_COVER)
    frameClock = WidgetFrameClock(widget: widget)
    fader = FadeAnimator(widget: widget)
    clickGesture = gtk_gesture_click_new()
    gtk_widget_add_controller(widget, clickGesture)
    VisibilityTracker.track(UnsafeMutableRawPointer(widget)) { [weak self] visible in
      self?.magpie.isVisible = visible
    }
    SignalHandler.connect(
      UnsafeMutableRawPointer(clickGesture), "released",
      click: { [weak self] _ in
        guard let self, self.retriesFailedLoadOnClick else { return }
        self.magpie.retryFailedLoad()
      })
  }

  isolated deinit {
    fader.cancel()
    frameClock.stop()
  }

  /// The `GtkWidget` to put in a container.
  public var widget: UnsafeMutablePointer<GtkWidget> { picture.as(GtkWidget.self) }

  /// Its opacity now (below 1 while fading in).
  public var opacity: Double { gtk_widget_get_opacity(widget) }

  /// Shows `image` at once.
  public func display(_ image: Image?) {
    fader.cancel()
    show(image)
  }

  /// Shows `image`, fading it in for a `.fade` transition.
  public func display(_ image: Image?, transition: ImageTransition) {
    switch transition {
    case .none: display(image)
    case .fade(let duration):
      show(image)
      fader.fadeIn(over: duration)
    }
  }

  /// Shows `image` as the highlighted image.
  public func displayHighlighted(_ image: Image?) {
    highlightedTexture = TextureImage.texture(of: image)
    showCurrent()
  }

  /// The spinner, if any.
  public var imageIndicator: (any ImageIndicator)? { indicator }

  /// The widget's frame clock: animations play.
  public var animationClock: (any FrameClock)? { frameClock }

  /// Shows one animation frame.
  public func displayAnimationFrame(_ frame: PixelBuffer, index: Int) {
    animationFramesShown += 1
    texture = TextureImage.texture(of: frame)
    showCurrent()
  }

  private func show(_ image: Image?) {
    shownImage = image
    texture = TextureImage.texture(of: image)
    showCurrent()
  }

  private func showCurrent() {
    let shown = (isHighlighted ? highlightedTexture : nil) ?? texture
    gtk_picture_set_paintable(picture.opaque, shown.map { magpie_paintable($0.pointer) })
  }
}
