import Foundation
import Magpie
import MagpieGTK

// Eight pictures from a web server in a window: a grey placeholder while
// each loads, a fade when it arrives, a failure image (click it to retry)
// for the one that is missing. Run: magpie-gtk-example http://HOST:PORT/
let base = URL(string: CommandLine.arguments.dropFirst().first ?? "http://127.0.0.1:8080/")!
let exitsWhenLoaded = CommandLine.arguments.contains("--exit-when-loaded")  // for the tests

GTKMainLoop.install()  // Magpie's completions run on the main actor, inside GLib's loop
gtk_init()

/// One line per image as it arrives (unbuffered, even into a pipe).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// A flat grey image: placeholders and failure images are plain `Image`s.
func flat(_ grey: UInt8) -> Image {
  Image(pixels: PixelBuffer(width: 8, height: 8, straightRGBA: [UInt8](repeating: grey, count: 8 * 8 * 4)))
}

let window = GTKWindow(title: "Magpie photos", width: 980, height: 380)
let grid = GTKGrid(spacing: 4, homogeneous: true)
window.child = grid.widget

let names = (0..<7).map { "photo-0\($0).jpg" } + ["missing.jpg"]
var views: [PictureView] = []
var pending = names.count
for (index, name) in names.enumerated() {
  let view = PictureView()
  view.magpie.transition = .fade(.milliseconds(200))
  view.magpie.failureImage = flat(200)
  gtk_widget_set_size_request(view.widget, 240, 180)
  grid.attach(view.widget, column: index % 4, row: index / 4)
  view.magpie.setImage(with: base.appendingPathComponent(name), placeholder: flat(90)) { result in
    switch result {
    case .success(let loaded): say("loaded \(name) \(loaded.image.pixelSize)")
    case .failure(let error): say("failed \(name): \(error.code)")
    }
    pending -= 1
    if pending == 0, exitsWhenLoaded { window.close() }
  }
  views.append(view)
}
window.present()
window.runUntilClosed()
