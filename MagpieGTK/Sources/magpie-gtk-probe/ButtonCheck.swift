import CGTK4
import Magpie
import MagpieGTK

/// A button shows the image of the state its GTK flags map to, falling
/// back to the normal image, and changes when the flags change.
@MainActor
enum ButtonCheck {
  static func run(_ context: ProbeContext) -> String? {
    let button = ButtonView()
    context.show(button.widget)
    let normal = Image(pixels: PixelBuffer(width: 2, height: 2, straightRGBA: [UInt8](repeating: 255, count: 16)))
    let highlighted = Image(pixels: PixelBuffer(width: 4, height: 4, straightRGBA: [UInt8](repeating: 128, count: 64)))
    button.setImage(normal, for: .normal)
    button.setImage(highlighted, for: .highlighted)
    // A lone button in a window takes the focus; this check wants none.
    gtk_widget_set_focusable(button.widget, 0)
    gtk_widget_unset_state_flags(button.widget, GTK_STATE_FLAG_FOCUSED)
    gtk_widget_unset_state_flags(button.widget, GTK_STATE_FLAG_FOCUS_VISIBLE)
    guard button.showsImage, button.shownState == .normal else {
      return "normal image not shown (\(button.shownState), \(button.showsImage))"
    }
    let expectations: [(GtkStateFlags, ControlState)] = [
      (GTK_STATE_FLAG_PRELIGHT, .highlighted), (GTK_STATE_FLAG_ACTIVE, .highlighted),
      (GTK_STATE_FLAG_SELECTED, .selected), (GTK_STATE_FLAG_FOCUS_VISIBLE, .focused),
    ]
    for (flag, state) in expectations {
      gtk_widget_set_state_flags(button.widget, flag, 0)
      guard button.shownState == state else { return "flag \(flag.rawValue) shows \(button.shownState), not \(state)" }
      gtk_widget_unset_state_flags(button.widget, flag)
      guard button.shownState == .normal else { return "unsetting \(flag.rawValue) left \(button.shownState)" }
    }
    gtk_widget_set_sensitive(button.widget, 0)
    guard button.shownState == .disabled else { return "insensitive shows \(button.shownState)" }
    guard button.showsImage else { return "disabled did not fall back to the normal image" }
    gtk_widget_set_sensitive(button.widget, 1)
    return nil
  }
}
