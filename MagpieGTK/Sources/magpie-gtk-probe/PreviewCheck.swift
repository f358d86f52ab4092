import CGTK4
import Foundation
import Magpie
import MagpieGTK

/// A progressive JPEG served at a trickle: the picture shows previews
/// (partial images, without a transition) before the final image, which
/// comes with the cross-dissolve. Screenshots of a preview and of the
/// final image go to the artifacts folder.
@MainActor
enum PreviewCheck {
  static func run(_ context: ProbeContext, origin: String) -> String? {
    guard let url = URL(string: origin)?.appendingPathComponent("slow/photo-01.jpg") else { return "bad origin" }
    let view = PictureView()
    context.show(view.widget)
    view.magpie.transition = .crossDissolve(.milliseconds(150))
    var sawPreview = false
    var result: Result<ImageResult, MagpieError>?
    view.magpie.setImage(
      with: url, manager: context.manager, progress: { _ in },
      completion: { result = $0 })
    GTKMainLoop.iterate(until: {
      // A preview shows without a transition.
      sawPreview = view.shownImage?.isPartial == true && !view.isTransitioning
      return sawPreview || result != nil
    })
    guard result == nil, sawPreview else { return "the image arrived before any preview showed" }
    // Let the preview be drawn, then keep it.
    context.waitForTicks(2, on: context.window)
    if let path = context.artifact("preview.png"), !WidgetSnapshot.savePNG(of: view.widget, to: path) {
      return "screenshot not saved"
    }
    GTKMainLoop.iterate(until: { result != nil })
    guard case .success(let loaded) = result, !loaded.image.isPartial else { return "the load failed" }
    guard view.shownImage?.isPartial == false else { return "the final image is not shown" }
    GTKMainLoop.iterate(until: { !view.isTransitioning })
    context.waitForTicks(2, on: context.window)
    if let path = context.artifact("preview-final.png"), !WidgetSnapshot.savePNG(of: view.widget, to: path) {
      return "screenshot not saved"
    }
    return nil
  }
}
