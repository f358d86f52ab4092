import CGTK4
import CMagpieGTK
import Magpie

/// Two `GtkPicture`s in a `GtkStack`: the one in front shows the image, the
/// one behind takes the next image when a transition runs, and the stack
/// draws the transition between them (cross-fade, rotation, slide). The
/// picture left behind lets go of its texture once the transition ends, so
/// a view holds two textures only while one runs.
@MainActor
final class PictureStack {
  private let stack: GObjectRef
  private var front: GObjectRef
  private var back: GObjectRef

  init() {
    let stack = gtk_stack_new()!
    self.stack = GObjectRef(sinking: UnsafeMutableRawPointer(stack))
    func picture() -> GObjectRef {
      let widget = gtk_picture_new()!
      gtk_picture_set_content_fit(OpaquePointer(widget), GTK_CONTENT_FIT_COVER)
      gtk_stack_add_child(OpaquePointer(stack), widget)
      return GObjectRef(sinking: UnsafeMutableRawPointer(widget))
    }
    front = picture()
    back = picture()
    gtk_stack_set_visible_child(OpaquePointer(stack), front.as(GtkWidget.self))
    SignalHandler.connect(
      UnsafeMutableRawPointer(stack), "notify::transition-running",
      object: { [weak self] _ in
        guard let self, !self.isRunning else { return }
        gtk_picture_set_paintable(self.back.opaque, nil)
      })
  }

  /// The `GtkStack`.
  var widget: UnsafeMutablePointer<GtkWidget> { stack.as(GtkWidget.self) }

  /// The picture in front.
  var picture: OpaquePointer { front.opaque }

  /// How many textures the two pictures hold: 2 only while a transition runs.
  var texturesHeld: Int {
    [front, back].filter { gtk_picture_get_paintable($0.opaque) != nil }.count
  }

  /// Whether a transition runs.
  var isRunning: Bool { gtk_stack_get_transition_running(stack.opaque) != 0 }

  /// Shows `paintable` in front at once, ending any transition.
  func show(_ paintable: OpaquePointer?) {
    if isRunning {
      gtk_stack_set_transition_type(stack.opaque, GTK_STACK_TRANSITION_TYPE_NONE)
      gtk_stack_set_visible_child(stack.opaque, back.as(GtkWidget.self))
      swap(&front, &back)
    }
    gtk_picture_set_paintable(back.opaque, nil)
    gtk_picture_set_paintable(front.opaque, paintable)
  }

  /// Brings `paintable` in from behind with the stack's `type` over
  /// `duration`.
  func transition(to paintable: OpaquePointer?, type: GtkStackTransitionType, over duration: Duration) {
    gtk_picture_set_paintable(back.opaque, paintable)
    let (seconds, attoseconds) = duration.components
    gtk_stack_set_transition_duration(stack.opaque, guint(max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)))
    gtk_stack_set_transition_type(stack.opaque, type)
    gtk_stack_set_visible_child(stack.opaque, back.as(GtkWidget.self))
    swap(&front, &back)
  }

  /// The stack's transition for a Magpie one (`nil`: not the stack's).
  static func stackTransition(for transition: ImageTransition) -> GtkStackTransitionType? {
    switch transition {
    case .crossDissolve: GTK_STACK_TRANSITION_TYPE_CROSSFADE
    case .flip(let direction, _):
      direction == .left || direction == .up
        ? GTK_STACK_TRANSITION_TYPE_ROTATE_LEFT : GTK_STACK_TRANSITION_TYPE_ROTATE_RIGHT
    case .slide(.left, _): GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT
    case .slide(.right, _): GTK_STACK_TRANSITION_TYPE_SLIDE_RIGHT
    case .slide(.up, _): GTK_STACK_TRANSITION_TYPE_SLIDE_UP
    case .slide(.down, _): GTK_STACK_TRANSITION_TYPE_SLIDE_DOWN
    case .none, .fade, .custom: nil
    }
  }
}
