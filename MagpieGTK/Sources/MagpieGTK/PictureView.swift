import CGTK4
import CMagpieGTK
import Magpie

/// A picture Magpie loads into: `picture.magpie.setImage(with: url)`.
/// Animated images play on the widget's frame clock and pause while it is
/// unmapped. Transitions are drawn: `.fade` fades the picture in,
/// `.crossDissolve`, `.flip` and `.slide` run from the previous image (a
/// `GtkStack` of two `GtkPicture`s). Loads ask for the widget's size
/// (`ImageBinding.loadsAtDisplaySize`), and a widget that grows
/// loads at its new size. A highlighted image shows instead of the image
/// while ``isHighlighted`` is set; a click while its last load has failed
/// loads it again.
@MainActor
public final class PictureView: HighlightableImageTarget {
  /// Where the binding keeps this view's loads.
  public let imageBindingState = ImageBindingState()
  /// The indicator run while a load runs (a ``SpinnerIndicator``, a
  /// ``ProgressIndicator``, your own); `nil` shows none.
  public var indicator: (any ImageIndicator)?
  /// Whether the highlighted image (when there is one) shows.
  public var isHighlighted = false {
    didSet { showCurrent() }
  }

  private let frame: GObjectRef
  private let pictures = PictureStack()
  private let frameClock: WidgetFrameClock
  private let fader: FadeAnimator
  private var texture: GObjectRef?
  private var highlightedTexture: GObjectRef?
  /// The image shown last (not an animation frame).
  public private(set) var shownImage: Image?
  /// How many animation frames it has shown.
  public private(set) var animationFramesShown = 0
  /// Whether a transition is running.
  public var isTransitioning: Bool { fader.isFading || pictures.isRunning }
  /// Whether a click on the view while its last load has failed (its
  /// failure image showing) loads it again, as
  /// `ImageBinding.retryFailedLoad(forKey:)` does; on by default.
  public var retriesFailedLoadOnClick = true
  /// The click gesture the view listens to (the widget owns it).
  public let clickGesture: OpaquePointer

  /// A new picture, scaled to cover its allocation, loading at its size.
  public init() {
    let widget = magpie_frame_new(pictures.widget)!
    frame = GObjectRef(sinking: UnsafeMutableRawPointer(widget))
    frameClock = WidgetFrameClock(widget: widget)
    fader = FadeAnimator(widget: widget)
    clickGesture = gtk_gesture_click_new()
    gtk_widget_add_controller(widget, clickGesture)
    imageBindingState.loadsAtDisplaySize = true
    VisibilityTracker.track(UnsafeMutableRawPointer(widget)) { [weak self] visible in
      self?.magpie.isVisible = visible
    }
    SignalHandler.connect(
      UnsafeMutableRawPointer(clickGesture), "released",
      click: { [weak self] _ in
        guard let self, self.retriesFailedLoadOnClick else { return }
        self.magpie.retryFailedLoad()
      })
    SignalHandler.onResize(widget) { [weak self] in self?.magpie.displaySizeDidChange() }
  }

  isolated deinit {
    fader.cancel()
    frameClock.stop()
  }

  /// The `GtkWidget` to put in a container.
  public var widget: UnsafeMutablePointer<GtkWidget> { frame.as(GtkWidget.self) }

  /// The `GtkPicture` in front (what shows the image now).
  public var picture: OpaquePointer { pictures.picture }

  /// Whether the picture in front shows something.
  public var showsImage: Bool { gtk_picture_get_paintable(picture) != nil }

  /// How many textures it holds: 2 only while a drawn transition runs
  /// (the previous image and the new one), else 1 (or 0 when empty).
  public var texturesHeld: Int { pictures.texturesHeld }

  /// Its opacity now (below 1 while fading in).
  public var opacity: Double { gtk_widget_get_opacity(widget) }

  /// Its size in device pixels: the allocation (or, before one, the size
  /// request) times the scale factor; `nil` while neither is known.
  public var displayPixelSize: PixelSize? {
    var width = gtk_widget_get_width(widget)
    var height = gtk_widget_get_height(widget)
    if width <= 0 || height <= 0 { gtk_widget_get_size_request(widget, &width, &height) }
    guard width > 0, height > 0 else { return nil }
    let scale = max(1, gtk_widget_get_scale_factor(widget))
    return PixelSize(width: Int(width * scale), height: Int(height * scale))
  }

  /// It covers its area and crops.
  public var displayContentMode: ImageProcessors.Resizing.Mode { .fill }

  /// Shows `image` at once.
  public func display(_ image: Image?) {
    fader.cancel()
    show(image)
  }

  /// Shows `image` with `transition` drawn (`.custom` is the binding's to run).
  public func display(_ image: Image?, transition: ImageTransition) {
    fader.cancel()
    if let type = PictureStack.stackTransition(for: transition) {
      shownImage = image
      texture = TextureImage.texture(of: image)
      guard !isHighlighted || highlightedTexture == nil else { return }
      pictures.transition(to: texture.map { magpie_paintable($0.pointer) }, type: type, over: transition.duration)
      return
    }
    show(image)
    if case .fade(let duration) = transition { fader.fadeIn(over: duration) }
  }

  /// Shows `image` as the highlighted image.
  public func displayHighlighted(_ image: Image?) {
    highlightedTexture = TextureImage.texture(of: image)
    showCurrent()
  }

  /// The indicator, if any.
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
    pictures.show(shown.map { magpie_paintable($0.pointer) })
  }
}
