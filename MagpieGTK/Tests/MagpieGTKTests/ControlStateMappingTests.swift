import CGTK4
import Magpie
import MagpieGTK
import Testing

/// GTK state flags map to the control state a button shows.
@Suite struct ControlStateMappingTests {
  @Test(arguments: [
    (GTK_STATE_FLAG_NORMAL.rawValue, ControlState.normal),
    (GTK_STATE_FLAG_PRELIGHT.rawValue, .highlighted),
    (GTK_STATE_FLAG_ACTIVE.rawValue, .highlighted),
    (GTK_STATE_FLAG_ACTIVE.rawValue | GTK_STATE_FLAG_PRELIGHT.rawValue, .highlighted),
    (GTK_STATE_FLAG_INSENSITIVE.rawValue, .disabled),
    (GTK_STATE_FLAG_INSENSITIVE.rawValue | GTK_STATE_FLAG_PRELIGHT.rawValue, .disabled),
    (GTK_STATE_FLAG_SELECTED.rawValue, .selected),
    (GTK_STATE_FLAG_FOCUSED.rawValue, .focused),
    (GTK_STATE_FLAG_FOCUS_VISIBLE.rawValue | GTK_STATE_FLAG_FOCUSED.rawValue, .focused),
    (GTK_STATE_FLAG_FOCUSED.rawValue | GTK_STATE_FLAG_PRELIGHT.rawValue, .highlighted),
    (GTK_STATE_FLAG_BACKDROP.rawValue, .normal),
  ])
  func mapping(flags: UInt32, state: ControlState) {
    #expect(ControlState(gtkStateFlags: flags) == state)
  }
}
