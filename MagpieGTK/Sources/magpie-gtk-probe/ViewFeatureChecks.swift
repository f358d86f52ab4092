import CGTK4
import Magpie
import MagpieGTK

/// Checks of what issue 37 added to PictureView: drawn transitions, loads
/// at the widget's size, and the progress bar.
@MainActor
enum ViewFeatureChecks {
  /// The check called `name`.
  static func named(_ name: String) -> ((ProbeContext) -> String?)? {
    switch name {
    case "stack-transitions": stackTransitions
    case "picture-loads-at-its-size": loadsAtItsSize
    case "progress-bar-follows-load": progressBar
    default: nil
    }
  }

  private static func solid(_ rgba: [UInt8]) -> Image {
    Image(pixels: PixelBuffer(width: 8, height: 8, straightRGBA: Array(repeating: rgba, count: 64).flatMap { $0 }))
  }

  /// Each stack transition starts, ends, leaves the new image in front and
  /// lets go of the old texture.
  static func stackTransitions(_ context: ProbeContext) -> String? {
    let view = PictureView()
    context.show(view.widget)
    let red = solid([220, 20, 30, 255])
    let blue = solid([20, 30, 220, 255])
    let transitions: [ImageTransition] = [
      .crossDissolve(.milliseconds(120)), .flip(.left, .milliseconds(120)), .flip(.right, .milliseconds(120)),
      .slide(.left, .milliseconds(120)), .slide(.right, .milliseconds(120)), .slide(.up, .milliseconds(120)),
      .slide(.down, .milliseconds(120)),
    ]
    for (index, transition) in transitions.enumerated() {
      let (from, to) = index % 2 == 0 ? (red, blue) : (blue, red)
      view.display(from)
      context.waitForTicks(2, on: context.window)
      view.display(to, transition: transition)
      guard view.isTransitioning, view.texturesHeld == 2 else {
        return "\(transition) did not start (held \(view.texturesHeld))"
      }
      GTKMainLoop.iterate(until: { !view.isTransitioning })
      context.waitForTicks(2, on: context.window)
      guard view.texturesHeld == 1 else { return "\(transition) kept \(view.texturesHeld) textures" }
      guard let pixels = WidgetSnapshot.pixels(of: view.widget) else { return "no snapshot" }
      let middle = pixels[pixels.width / 2, pixels.height / 2]
      let expected = to.pixels[0, 0]
      guard abs(Int(middle.x) - Int(expected.x)) <= 3, abs(Int(middle.z) - Int(expected.z)) <= 3 else {
        return "after \(transition) the middle pixel is \(middle), not \(expected)"
      }
    }
    if let path = context.artifact("transition-finished.png"), !WidgetSnapshot.savePNG(of: view.widget, to: path) {
      return "screenshot not saved"
    }
    return nil
  }

  /// A 240x180 cell decodes a 1600x1067 photo at 240x176 (never more
  /// pixels than it shows); grown to 400x300 it loads once at 400x296,
  /// and keeps that when its size request shrinks.
  static func loadsAtItsSize(_ context: ProbeContext) -> String? {
    let view = PictureView()
    gtk_widget_set_size_request(view.widget, 240, 180)
    let box = GTKBox(.vertical)
    gtk_widget_set_halign(view.widget, GTK_ALIGN_START)
    gtk_widget_set_valign(view.widget, GTK_ALIGN_START)
    box.append(view.widget)
    context.show(box.widget)
    GTKMainLoop.iterate(until: { gtk_widget_get_width(view.widget) == 240 })
    guard case .success(let result) = context.load(context.sample("photo-00.jpg"), into: view) else {
      return "load failed"
    }
    let scale = Int(gtk_widget_get_scale_factor(view.widget))
    let held = result.image.pixelSize
    guard held == PixelSize(width: 240 * scale, height: 176 * scale) else { return "a 240x180 cell holds \(held)" }
    gtk_widget_set_size_request(view.widget, 400, 300)
    GTKMainLoop.iterate(until: { view.shownImage?.pixelSize.width == 400 * scale })
    guard view.shownImage?.pixelSize == PixelSize(width: 400 * scale, height: 296 * scale) else {
      return "grown to 400x300 it holds \(String(describing: view.shownImage?.pixelSize))"
    }
    // Its natural size is now its image's, so the allocation stays; the
    // binding's tests cover a shrink that reaches the allocation.
    gtk_widget_set_size_request(view.widget, 100, 80)
    context.waitForTicks(3, on: context.window)
    guard view.shownImage?.pixelSize.width == 400 * scale, !view.magpie.displaySizeDidChange() else {
      return "shrunk, it loaded again"
    }
    return nil
  }

  /// The bar shows while the load runs, ends full, and hides.
  static func progressBar(_ context: ProbeContext) -> String? {
    let view = PictureView()
    let bar = ProgressIndicator()
    view.indicator = bar
    context.show(view.widget)
    var fractions: [Double] = []
    var result: Result<ImageResult, MagpieError>?
    view.magpie.setImage(
      with: context.sample("photo-03.jpg"), manager: context.manager, progress: { _ in fractions.append(bar.fraction) },
      completion: { result = $0 })
    guard bar.isVisible, bar.fraction == 0 else { return "bar not shown empty when the load started" }
    GTKMainLoop.iterate(until: { result != nil })
    guard case .success = result else { return "load failed" }
    guard fractions.last == 1 else { return "bar fractions \(fractions)" }
    return bar.isVisible ? "bar still shown after the load" : nil
  }
}
