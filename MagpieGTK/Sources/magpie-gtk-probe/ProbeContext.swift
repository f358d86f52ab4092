import CGTK4
import Foundation
import Magpie
import MagpieGTK
import Synchronization

/// What a widget check runs with: GTK started, a window to show widgets
/// in, a memory-only manager, and the sample images.
@MainActor
final class ProbeContext {
  /// A manager of its own, memory cache only: checks never touch the disk.
  let manager: ImageManager
  /// `samples/`.
  let samples: URL
  /// The window checks put their widget in.
  let window: UnsafeMutablePointer<GtkWidget>

  private init(samples: URL) {
    self.samples = samples
    let cache = ImageCache(diskCache: nil, trimsOnMemoryPressure: false)
    manager = ImageManager(
      configuration: .init(
        cache: cache, downloader: ImageDownloader(configuration: .init(dataLoader: CurlDataLoader()))))
    window = gtk_window_new()!
    gtk_window_set_default_size(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self), 320, 240)
  }

  /// GTK started on the display in `$DISPLAY`, with the dispatch source
  /// installed; `nil` when GTK cannot start.
  static func start(samples: URL) -> ProbeContext? {
    GTKMainLoop.install()
    guard gtk_init_check() != 0 else { return nil }
    return ProbeContext(samples: samples)
  }

  /// Where a check saves the screenshot `name`: in `$MAGPIE_PROBE_ARTIFACTS`
  /// when the test gives one (`nil` otherwise).
  func artifact(_ name: String) -> String? {
    guard let folder = ProcessInfo.processInfo.environment["MAGPIE_PROBE_ARTIFACTS"] else { return nil }
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder + "/" + name
  }

  /// A file in `samples/` as a data provider.
  func sample(_ name: String) -> FileDataProvider {
    FileDataProvider(fileURL: samples.appendingPathComponent(name))
  }

  /// Shows `widget` as the window's only child and waits until it is mapped.
  func show(_ widget: UnsafeMutablePointer<GtkWidget>) {
    let window = UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self)
    gtk_window_set_child(window, widget)
    gtk_window_present(window)
    GTKMainLoop.iterate(until: { gtk_widget_get_mapped(widget) != 0 })
  }

  /// Iterates the main loop until `widget`'s frame clock has ticked `count`
  /// more times.
  func waitForTicks(_ count: Int, on widget: UnsafeMutablePointer<GtkWidget>) {
    let ticks = Mutex(0)
    let clock = WidgetFrameClock(widget: widget)
    clock.start { _ in ticks.withLock { $0 += 1 } }
    GTKMainLoop.iterate(until: { ticks.withLock { $0 } >= count })
    clock.stop()
  }

  /// Loads `provider` into `view` and waits for the result.
  func load(_ provider: FileDataProvider, into view: PictureView, transition: ImageTransition = .none)
    -> Result<ImageResult, MagpieError>
  {
    var result: Result<ImageResult, MagpieError>?
    view.magpie.transition = transition
    view.magpie.setImage(with: provider, manager: manager, completion: { result = $0 })
    GTKMainLoop.iterate(until: { result != nil })
    return result!
  }
}
