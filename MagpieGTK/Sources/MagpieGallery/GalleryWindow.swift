import CGTK4
import CMagpieGTK
import Foundation
import Magpie
import MagpieGTK

/// The gallery window: a `GtkGridView` over the URLs in a scrolled window,
/// with cells made, bound, unbound and dropped by a
/// `GtkSignalListItemFactory`, and the live counts in the title.
@MainActor
final class GalleryWindow {
  let window: UnsafeMutablePointer<GtkWidget>
  let scrolled: UnsafeMutablePointer<GtkWidget>
  let stats = GalleryStats()
  /// The cells alive now, by their list item.
  private(set) var cells: [UnsafeMutableRawPointer: GalleryCell] = [:]
  private let manager: ImageManager
  /// Whether bound cells load their images (the UI test measures its
  /// baseline with this off: every cell made and drawn, no image loaded);
  /// turning it on loads the cells bound meanwhile.
  var loadsImages = true {
    didSet {
      guard loadsImages, !oldValue else { return }
      for cell in cells.values { cell.load() }
    }
  }

  /// What the memory cache holds now, in bytes of pixels.
  var memoryCacheBytes: Int { manager.configuration.cache.memoryCache.totalCost }

  init(urls: [String], manager: ImageManager) {
    self.manager = manager
    window = gtk_window_new()!
    scrolled = gtk_scrolled_window_new()!
    gtk_window_set_default_size(Self.gtkWindow(window), 1000, 700)
    let list = gtk_string_list_new(nil)
    for url in urls { gtk_string_list_append(list, url) }
    let factory = gtk_signal_list_item_factory_new()!
    // Before the view exists: it sets up its first items as it is made.
    connect(factory: UnsafeMutableRawPointer(factory))
    // The selection model takes the list; the view takes both.
    let grid = gtk_grid_view_new(gtk_no_selection_new(list), factory)!
    gtk_grid_view_set_max_columns(OpaquePointer(grid), 12)
    gtk_scrolled_window_set_child(OpaquePointer(scrolled), grid)
    gtk_window_set_child(Self.gtkWindow(window), scrolled)
    stats.changed = { [weak self] in self?.updateTitle() }
    updateTitle()
  }

  /// The vertical adjustment of the scrolled grid.
  var vadjustment: UnsafeMutablePointer<GtkAdjustment> { gtk_scrolled_window_get_vadjustment(OpaquePointer(scrolled))! }

  private func connect(factory: UnsafeMutableRawPointer) {
    SignalHandler.connect(factory, "setup") { [weak self] (item: UnsafeMutableRawPointer?) in
      guard let self, let item else { return }
      let cell = GalleryCell(stats: self.stats, manager: self.manager)
      self.cells[item] = cell
      gtk_list_item_set_child(magpie_list_item(item), cell.view.widget)
    }
    SignalHandler.connect(factory, "bind") { [weak self] (item: UnsafeMutableRawPointer?) in
      guard let item, let cell = self?.cells[item],
        let object = gtk_list_item_get_item(magpie_list_item(item)),
        let text = gtk_string_object_get_string(OpaquePointer(object)),
        let url = URL(string: String(cString: text))
      else { return }
      cell.bind(url, loading: self?.loadsImages ?? true)
    }
    SignalHandler.connect(factory, "unbind") { [weak self] (item: UnsafeMutableRawPointer?) in
      guard let item else { return }
      self?.cells[item]?.unbind()
    }
    SignalHandler.connect(factory, "teardown") { [weak self] (item: UnsafeMutableRawPointer?) in
      guard let item else { return }
      self?.cells[item] = nil
    }
  }

  private func updateTitle() {
    gtk_window_set_title(Self.gtkWindow(window), stats.title)
  }

  /// `widget` as the GtkWindow it is.
  static func gtkWindow(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWindow> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkWindow.self)
  }
}
