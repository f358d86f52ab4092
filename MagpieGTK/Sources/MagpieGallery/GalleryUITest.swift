import CGTK4
import Foundation
import Magpie
import MagpieGTK
import Synchronization

/// `--ui-test OUT`: scrolls the whole grid three times (``passes``; the
/// first loads from the network, the others mostly from the disk), page by
/// page, letting
/// each page's loads settle; then, at the top, takes two screenshots some
/// frames apart and classifies every visible cell (image, placeholder,
/// error; changed between the shots). Writes `screenshot-1.png`,
/// `screenshot-2.png` and `report.json` to OUT; the test reads the report.
@MainActor
struct GalleryUITest {
  let gallery: GalleryWindow
  let output: URL
  let memoryLimit: Int
  /// Whether the passes load images (`false`: the control run).
  let loadsImages: Bool
  /// Three: the second and third read from the disk alike, so their
  /// memory figures compare like with like.
  let passes = 3

  /// Runs it; the exit status (0 when it could run, whatever it found).
  func run() -> Int32 {
    try? FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    // The baseline: GTK, the window and its first screen of cells made and
    // drawn with placeholders, before any image loads.
    gallery.loadsImages = false
    gtk_window_present(GalleryWindow.gtkWindow(gallery.window))
    GTKMainLoop.iterate(until: { gtk_widget_get_mapped(gallery.window) != 0 })
    let baseline = settledResidentBytes()
    let baselineBreakdown = MemoryBreakdown.current()
    gallery.loadsImages = loadsImages
    var figures: [[String: Any]] = []
    let started = ContinuousClock.now
    for pass in 1...passes {
      let begin = ContinuousClock.now
      let pages = scrollWholeGrid()
      figures.append([
        "pass": pass, "pages": pages, "residentBytes": Self.residentBytes(),
        "cellsAlive": gallery.cells.count,
        "cellsBound": gallery.cells.values.filter { $0.url != nil }.count,
        "shownImageBytes": gallery.cells.values.reduce(0) { $0 + ($1.view.shownImage?.byteCount ?? 0) },
        "largestShownStillPixels": gallery.cells.values.filter { !$0.isAnimated }.reduce(0) {
          max($0, $1.view.shownImage?.pixelSize.pixelCount ?? 0)
        },
        "cellPixels": Int(GalleryCell.side) * Int(GalleryCell.side),
        // Size-aware loads: no still cell holds more pixels than its
        // allocation times its scale factor.
        "stillCellsOverAllocation": gallery.cells.values.filter { cell in
          guard !cell.isAnimated, let shown = cell.view.shownImage?.pixelSize,
            let allocation = cell.view.displayPixelSize
          else { return false }
          return shown.pixelCount > allocation.pixelCount
        }.count,
        "memoryCacheBytes": gallery.memoryCacheBytes,
        "seconds": Self.seconds(ContinuousClock.now - begin),
      ])
    }
    gtk_adjustment_set_value(gallery.vadjustment, 0)
    settle()
    let first = screenshot("screenshot-1.png")
    waitForAnimationFrames()
    let second = screenshot("screenshot-2.png")
    let cells = classifyVisibleCells(first, second)
    let report: [String: Any] = [
      "baselineResidentBytes": baseline, "memoryLimitBytes": memoryLimit, "passes": figures, "cells": cells,
      "baselineBreakdown": baselineBreakdown, "finalBreakdown": MemoryBreakdown.current(), "loadsImages": loadsImages,
      "finalTrimmedResidentBytes": Self.trimmedResidentBytes(),
      "stats": [
        "memory": gallery.stats.memory, "disk": gallery.stats.disk, "network": gallery.stats.network,
        "failed": gallery.stats.failed, "loading": gallery.stats.loading,
      ],
      "seconds": Self.seconds(ContinuousClock.now - started),
      "screenshot": output.appendingPathComponent("screenshot-1.png").path,
    ]
    guard let data = try? JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys]),
      (try? data.write(to: output.appendingPathComponent("report.json"))) != nil
    else { return 1 }
    print(gallery.stats.title)
    return 0
  }

  /// Steps the scroll position down a page at a time to the end; the
  /// number of pages.
  private func scrollWholeGrid() -> Int {
    let adjustment = gallery.vadjustment
    var value = 0.0
    var pages = 0
    gtk_adjustment_set_value(adjustment, 0)
    settle()
    while true {
      let page = gtk_adjustment_get_page_size(adjustment)
      let end = gtk_adjustment_get_upper(adjustment) - page
      guard value < end else { break }
      value = min(end, value + max(1, page))
      gtk_adjustment_set_value(adjustment, value)
      settle()
      pages += 1
    }
    return pages
  }

  /// Lets layout run (two frames: bind happens at the first) and then
  /// every load the new cells started finish, until a frame starts none;
  /// then lets the fades those loads began run out (a few frames, at most
  /// 600), so a screenshot sees the images at full opacity.
  private func settle() {
    repeat {
      waitForTicks(2)
      GTKMainLoop.iterate(until: { gallery.stats.loading == 0 })
    } while gallery.stats.loading != 0
    var frames = 0
    while frames < 600, gallery.cells.values.contains(where: { $0.view.isTransitioning }) {
      waitForTicks(1)
      frames += 1
    }
  }

  /// Waits until every animated cell on screen has shown a new frame
  /// (decoding frames on demand can lag on a busy machine, so no fixed
  /// time), or 10 s of frames have passed, then for that frame to be drawn.
  private func waitForAnimationFrames() {
    let animated = gallery.cells.values.filter { $0.isAnimated && gtk_widget_get_mapped($0.view.widget) != 0 }
    let before = animated.map { $0.view.animationFramesShown }
    var frames = 0
    while frames < 600, zip(animated, before).contains(where: { $0.view.animationFramesShown <= $1 }) {
      waitForTicks(1)
      frames += 1
    }
    waitForTicks(2)
  }

  /// Resident memory once GTK's own start-up has settled. Drawing the
  /// placeholder screen, with no image loaded, the process grows for about
  /// fifty frames (from 176 to 280 MB in one run: the renderer's caches
  /// filling); two frames in, the figure landed anywhere from 127 to
  /// 165 MB from run to run, and the memory check passed or failed with
  /// it. Read every two frames until five readings in a row lie within
  /// 2 MB, or for 400 frames at most.
  private func settledResidentBytes() -> Int {
    var readings: [Int] = []
    for _ in 0..<200 {
      waitForTicks(2)
      readings.append(Self.residentBytes())
      let last = readings.suffix(5)
      if last.count == 5, last.max()! - last.min()! < 2 << 20 { break }
    }
    return readings.last ?? Self.residentBytes()
  }

  private func waitForTicks(_ count: Int) {
    let ticks = Mutex(0)
    let clock = WidgetFrameClock(widget: gallery.window)
    clock.start { _ in ticks.withLock { $0 += 1 } }
    GTKMainLoop.iterate(until: { ticks.withLock { $0 } >= count })
    clock.stop()
  }

  private func screenshot(_ name: String) -> PixelBuffer? {
    for attempt in 0..<5 {
      if WidgetSnapshot.savePNG(of: gallery.window, to: output.appendingPathComponent(name).path) {
        return WidgetSnapshot.pixels(of: gallery.window)
      }
      FileHandle.standardError.write(Data("screenshot \(name) attempt \(attempt) failed\n".utf8))
      waitForTicks(2)
    }
    return nil
  }

  /// Every mapped cell wholly inside the window: its URL, what the first
  /// screenshot shows in it, and whether the second differs there.
  private func classifyVisibleCells(_ first: PixelBuffer?, _ second: PixelBuffer?) -> [[String: Any]] {
    guard let first, let second else { return [] }
    var cells: [[String: Any]] = []
    for cell in gallery.cells.values {
      guard let url = cell.url, gtk_widget_get_mapped(cell.view.widget) != 0 else { continue }
      var bounds = graphene_rect_t()
      guard gtk_widget_compute_bounds(cell.view.widget, gallery.window, &bounds) != 0 else { continue }
      let region = CellRegion(bounds)
      guard region.fits(first), region.fits(second) else { continue }
      cells.append([
        "url": url.absoluteString, "animated": cell.isAnimated,
        "shows": region.classify(first), "changed": region.differs(first, second),
      ])
    }
    return cells
  }

  /// Resident memory once glibc has handed its free pages back
  /// (`malloc_trim`): what the program holds, not what the allocator
  /// keeps. Read once, after every figure `ps` would show.
  static func trimmedResidentBytes() -> Int {
    malloc_trim(0)
    return residentBytes()
  }

  /// This process's resident memory, from /proc/self/statm: what `ps`
  /// shows as RSS (no `malloc_trim` first).
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
