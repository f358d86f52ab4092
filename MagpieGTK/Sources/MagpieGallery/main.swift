import CGTK4
import Foundation
import Magpie
import MagpieGTK

// Top-level code on the main thread with no dispatch_main(): GTK's loop
// runs the main actor through the dispatch source.
let options: GalleryOptions
do {
  options = try GalleryOptions(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("MagpieGallery: \(error)\n".utf8))
  exit(2)
}
if options.renderer == "cairo" {
  GTKRenderer.useSoftwareRendering()
} else {
  unsetenv("GSK_RENDERER")
}
GTKMainLoop.install()
guard gtk_init_check() != 0 else {
  FileHandle.standardError.write(Data("MagpieGallery: cannot open a display\n".utf8))
  exit(1)
}
let disk = try DiskCache(
  configuration: DiskCache.Configuration(directory: URL(fileURLWithPath: options.cacheDirectory)))
let cache = ImageCache(
  memoryCache: MemoryCache(limits: .init(totalCost: options.memoryLimit)), diskCache: disk,
  trimsOnMemoryPressure: false)
let manager = ImageManager(
  configuration: .init(cache: cache, downloader: ImageDownloader(configuration: .init(dataLoader: CurlDataLoader()))))
let gallery = GalleryWindow(urls: GalleryItems.urls(base: options.baseURL, count: options.count), manager: manager)
if let output = options.uiTestOutput {
  exit(
    GalleryUITest(
      gallery: gallery, output: URL(fileURLWithPath: output), memoryLimit: options.memoryLimit,
      loadsImages: options.loadsImages
    ).run())
}
var closed = false
SignalHandler.connect(UnsafeMutableRawPointer(gallery.window), "destroy") { closed = true }
gtk_window_present(GalleryWindow.gtkWindow(gallery.window))
GTKMainLoop.iterate(until: { closed })
