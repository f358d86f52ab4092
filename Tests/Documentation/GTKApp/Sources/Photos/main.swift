// The app of the "Loading Images into GTK Views" article: its blocks, in
// order, are this file.
// snippet.begin gtk-setup
import Foundation
import Magpie
import MagpieGTK  // brings GTK's C API too: gtk_init, gtk_widget_*

GTKRenderer.useSoftwareRendering()  // no GPU here: draw with cairo, never open GL
GTKMainLoop.install()  // Magpie's completions run on the main actor, inside GLib's loop
gtk_init()
// snippet.end

// snippet.begin gtk-images
/// A flat grey image: placeholders and failure images are plain `Image`s.
func flat(_ grey: UInt8) -> Image {
  Image(pixels: PixelBuffer(width: 8, height: 8, straightRGBA: [UInt8](repeating: grey, count: 8 * 8 * 4)))
}
// snippet.end

// snippet.begin gtk-window
let base = URL(string: CommandLine.arguments.dropFirst().first ?? "http://127.0.0.1:8080/")!
let window = GTKWindow(title: "Photos", width: 760, height: 400)
let grid = GTKGrid(spacing: 4, homogeneous: true)
window.child = grid.widget
// snippet.end

// snippet.begin gtk-views
let names = ["photo-00.jpg", "photo-01.jpg", "photo-02.jpg", "photo-03.jpg", "photo-04.jpg", "missing.jpg"]
var views: [PictureView] = []
for (index, name) in names.enumerated() {
  let view = PictureView()  // loads at the size GTK gives it
  view.magpie.transition = .fade(.milliseconds(200))
  gtk_widget_set_size_request(view.widget, 240, 180)
  grid.attach(view.widget, column: index % 3, row: index / 3)
  view.magpie.setImage(
    with: base.appendingPathComponent(name), placeholder: flat(90), failureImage: flat(200)
  ) { result in
    switch result {
    case .success(let loaded): print("loaded \(name) \(loaded.image.pixelSize)")
    case .failure(let error): print("failed \(name): \(error.code)")
    }
  }
  views.append(view)  // the views live as long as the window
}
// snippet.end

// snippet.begin gtk-run
window.present()
window.runUntilClosed()  // GLib's main loop, until the window is closed
// snippet.end
