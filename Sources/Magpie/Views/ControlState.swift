/// The states a button shows its own image in (UIControl.State), mapped by
/// a UI binding from its toolkit's state flags.
public enum ControlState: String, Sendable, Hashable, CaseIterable {
  /// Nothing special: the image every other state falls back to.
  case normal
  /// The pointer is over it, or it is pressed.
  case highlighted
  /// It does not respond.
  case disabled
  /// It is chosen (a toggle that is on).
  case selected
  /// It has the keyboard focus.
  case focused
}
