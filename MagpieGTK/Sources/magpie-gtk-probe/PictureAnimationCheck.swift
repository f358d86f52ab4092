import CGTK4
import MagpieGTK

/// An animated GIF plays on the widget's frame clock, pauses while the
/// widget is unmapped, and resumes when it is mapped again.
@MainActor
enum PictureAnimationCheck {
  static func run(_ context: ProbeContext) -> String? {
    let view = PictureView()
    context.show(view.widget)
    guard case .success(let result) = context.load(context.sample("pan-00.gif"), into: view) else {
      return "load failed"
    }
    guard result.image.isAnimated else { return "pan-00.gif did not load animated" }
    GTKMainLoop.iterate(until: { view.animationFramesShown >= 3 })
    gtk_widget_set_visible(view.widget, 0)
    guard !view.magpie.isVisible else { return "unmap did not set isVisible = false" }
    // A frame already on its way to the main queue may still land.
    context.waitForTicks(2, on: context.window)
    let paused = view.animationFramesShown
    context.waitForTicks(40, on: context.window)
    guard view.animationFramesShown == paused else {
      return "frames kept coming while unmapped: \(paused) -> \(view.animationFramesShown)"
    }
    gtk_widget_set_visible(view.widget, 1)
    guard view.magpie.isVisible else { return "map did not set isVisible = true" }
    GTKMainLoop.iterate(until: { view.animationFramesShown > paused })
    print("picture-animates-and-pauses: \(view.animationFramesShown) frames shown, none while unmapped")
    return nil
  }
}
