import CGTK4
import Magpie
import MagpieGTK

/// The checks of the binding's widgets, each run in a fresh probe process
/// on the test's Xvfb display; each returns its failure, or `nil`.
@MainActor
enum WidgetChecks {
  /// The check called `name`.
  static func named(_ name: String) -> ((ProbeContext) -> String?)? {
    switch name {
    case "texture-formats": textureFormats
    case "picture-loads": pictureLoads
    case "picture-animates-and-pauses": PictureAnimationCheck.run
    case "fade-transition": fadeTransition
    case "image-widget-loads": imageWidgetLoads
    case "spinner-runs-while-loading": spinnerRunsWhileLoading
    case "button-follows-state-flags": ButtonCheck.run
    case "snapshot-shows-image": snapshotShowsImage
    case "picture-retries-on-click": RetryOnClickCheck.run
    default: nil
    }
  }

  /// Straight buffers become straight textures and premultiplied ones
  /// premultiplied textures: GDK hands both back premultiplied alike.
  static func textureFormats(_ context: ProbeContext) -> String? {
    let straight = PixelBuffer(width: 1, height: 1, straightRGBA: [200, 100, 50, 128])
    let premultiplied = PixelBuffer(
      width: 1, height: 1, bytesPerRow: 4, premultipliedRGBA: [100, 50, 25, 128])
    for (name, buffer) in [("straight", straight), ("premultiplied", premultiplied)] {
      guard let texture = TextureFactory.texture(for: buffer) else { return "no texture for \(name)" }
      let pixel = WidgetSnapshot.pixels(of: texture)[0, 0]
      g_object_unref(UnsafeMutableRawPointer(texture))
      guard abs(Int(pixel.x) - 200) <= 2, abs(Int(pixel.y) - 100) <= 2, abs(Int(pixel.z) - 50) <= 2, pixel.w == 128
      else { return "\(name) texture reads back \(pixel)" }
    }
    return nil
  }

  static func pictureLoads(_ context: ProbeContext) -> String? {
    let view = PictureView()
    context.show(view.widget)
    guard case .success(let result) = context.load(context.sample("photo-00.jpg"), into: view) else {
      return "load failed"
    }
    guard let shown = view.shownImage, shown.pixelSize == result.image.pixelSize else { return "image not shown" }
    guard view.showsImage else { return "no paintable set" }
    return nil
  }

  static func fadeTransition(_ context: ProbeContext) -> String? {
    let view = PictureView()
    context.show(view.widget)
    var opacities: [Double] = []
    view.magpie.transition = .fade(.milliseconds(150))
    var done = false
    view.magpie.setImage(
      with: context.sample("photo-01.jpg"), manager: context.manager,
      completion: { _ in
        opacities.append(view.opacity)
        done = true
      })
    GTKMainLoop.iterate(until: { done })
    guard opacities.first.map({ $0 < 0.5 }) ?? false else { return "fade did not start at 0: \(opacities)" }
    GTKMainLoop.iterate(until: { view.opacity >= 1 })
    return nil
  }

  static func imageWidgetLoads(_ context: ProbeContext) -> String? {
    let view = ImageWidgetView(pixelSize: 64)
    context.show(view.widget)
    var result: Result<ImageResult, MagpieError>?
    view.magpie.setImage(with: context.sample("still-00.png"), manager: context.manager, completion: { result = $0 })
    GTKMainLoop.iterate(until: { result != nil })
    guard case .success = result else { return "load failed" }
    return view.hasImage ? nil : "GtkImage shows nothing"
  }

  static func spinnerRunsWhileLoading(_ context: ProbeContext) -> String? {
    let view = PictureView()
    let spinner = SpinnerIndicator()
    view.indicator = spinner
    context.show(view.widget)
    var spunWhileLoading = false
    var result: Result<ImageResult, MagpieError>?
    view.magpie.setImage(with: context.sample("photo-02.jpg"), manager: context.manager, completion: { result = $0 })
    spunWhileLoading = spinner.isAnimating
    GTKMainLoop.iterate(until: { result != nil })
    guard spunWhileLoading else { return "spinner did not start with the load" }
    return spinner.isAnimating ? "spinner still spins after the load" : nil
  }

  /// A screenshot of the window shows the loaded photo, not an empty
  /// window.
  static func snapshotShowsImage(_ context: ProbeContext) -> String? {
    let view = PictureView()
    context.show(view.widget)
    let red = PixelBuffer(
      width: 8, height: 8, straightRGBA: Array(repeating: [220, 20, 30, 255], count: 64).flatMap { $0 })
    view.display(Image(pixels: red))
    context.waitForTicks(3, on: context.window)
    guard let pixels = WidgetSnapshot.pixels(of: view.widget) else { return "no snapshot" }
    let middle = pixels[pixels.width / 2, pixels.height / 2]
    return middle.x > 200 && middle.y < 40 ? nil : "middle pixel is \(middle)"
  }
}
