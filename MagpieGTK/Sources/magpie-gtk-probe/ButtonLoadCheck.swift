import CGTK4
import Foundation
import Magpie
import MagpieGTK

/// `button.magpie.setImage(with:for:)` loads per state from the origin
/// (the third argument), and the button shows the highlighted image while
/// its GTK flags say prelight.
@MainActor
enum ButtonLoadCheck {
  static func run(_ context: ProbeContext, origin: String) -> String? {
    let button = ButtonView()
    context.show(button.widget)
    gtk_widget_set_focusable(button.widget, 0)
    gtk_widget_unset_state_flags(button.widget, GTK_STATE_FLAG_FOCUSED)
    var pending = 3
    var failures: [String] = []
    let done: @MainActor (Result<ImageResult, MagpieError>) -> Void = { result in
      pending -= 1
      if case .failure(let error) = result { failures.append("\(error)") }
    }
    button.magpie.setImage(
      with: URL(string: origin + "photo-00.jpg"), for: .normal, manager: context.manager, completion: done)
    button.magpie.setImage(
      with: URL(string: origin + "still-00.png"), for: .highlighted, manager: context.manager, completion: done)
    button.magpie.setBackgroundImage(
      with: URL(string: origin + "photo-01.jpg"), for: .normal, manager: context.manager, completion: done)
    GTKMainLoop.iterate(until: { pending == 0 })
    guard failures.isEmpty else { return "loads failed: \(failures)" }
    guard button.showsImage, button.showsBackground else { return "image or background not shown" }
    let normal = button.shownImageTexture
    gtk_widget_set_state_flags(button.widget, GTK_STATE_FLAG_PRELIGHT, 0)
    guard button.shownState == .highlighted, button.shownImageTexture != normal else {
      return "prelight did not show the highlighted image"
    }
    guard button.magpie.currentImageURL?.lastPathComponent == "still-00.png" else {
      return "current URL is \(String(describing: button.magpie.currentImageURL))"
    }
    gtk_widget_unset_state_flags(button.widget, GTK_STATE_FLAG_PRELIGHT)
    return button.shownImageTexture == normal ? nil : "the normal image did not come back"
  }
}
