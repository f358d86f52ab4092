import CGTK4
import Magpie

extension ControlState {
  /// The state a button with GTK state `flags` shows: insensitive is
  /// disabled; active (pressed) and prelight (hovered) are highlighted;
  /// selected; focused or focus-visible is focused; else normal. A state
  /// earlier in that list wins, as UIKit's disabled wins over highlighted.
  public init(gtkStateFlags flags: UInt32) {
    func has(_ flag: GtkStateFlags) -> Bool { flags & flag.rawValue != 0 }
    if has(GTK_STATE_FLAG_INSENSITIVE) {
      self = .disabled
    } else if has(GTK_STATE_FLAG_ACTIVE) || has(GTK_STATE_FLAG_PRELIGHT) {
      self = .highlighted
    } else if has(GTK_STATE_FLAG_SELECTED) {
      self = .selected
    } else if has(GTK_STATE_FLAG_FOCUSED) || has(GTK_STATE_FLAG_FOCUS_VISIBLE) {
      self = .focused
    } else {
      self = .normal
    }
  }
}
