import Foundation
import Testing

/// The gallery app end to end: its own nginx and Xvfb, the whole grid
/// scrolled three times, screenshots checked (see MagpieGallery's GalleryUITest
/// for how it drives and classifies cells).
@Suite struct GalleryUITests {
  /// What the memory check allows above the baseline (GTK, the window and
  /// a screen of placeholder cells, measured before any image loads), the
  /// memory cache's limit, the images the bound cells hold (counted in
  /// full, though most are the cache's entries too) and the cairo
  /// renderer's copy of each bound cell's texture: libcurl's and the
  /// decoders' buffers, the widgets of the cells bound beyond the first
  /// screen, and what malloc keeps (two arenas, set below; the figures are
  /// taken after `malloc_trim`).
  static let allowance = 24 << 20

  @Test func scrollingTheWholeGalleryShowsImagesAnimationsAndErrors() throws {
    let display = try XvfbDisplay.shared.get()
    let origin = try NginxOrigin(serving: GTKTestPaths.samples)
    defer { origin.stop() }
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-gtk-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    let output = GTKTestPaths.artifacts.appendingPathComponent("gallery")
    try? FileManager.default.removeItem(at: output)
    let run = try ProbeRun.run(
      "MagpieGallery",
      ["--base-url", origin.url("/").absoluteString, "--cache-dir", cache.path, "--ui-test", output.path],
      environment: display.environment.merging(["MALLOC_ARENA_MAX": "2"]) { $1 })
    try #require(run.status == 0, "\(run.output)")
    let data = try Data(contentsOf: output.appendingPathComponent("report.json"))
    let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    print("gallery screenshots: \(output.path)/screenshot-1.png, screenshot-2.png")
    checkCells(try #require(report["cells"] as? [[String: Any]]))
    checkStats(try #require(report["stats"] as? [String: Int]))
    checkMemory(report)
  }

  private func checkCells(_ cells: [[String: Any]]) {
    #expect(cells.count >= 20, "too few cells on screen: \(cells.count)")
    var animated = 0
    var broken = 0
    for cell in cells {
      let url = cell["url"] as? String ?? ""
      let shows = cell["shows"] as? String ?? ""
      if url.contains("/missing-") {
        broken += 1
        #expect(shows == "error", "\(url) shows \(shows), not the error placeholder")
      } else {
        #expect(shows == "image", "\(url) shows \(shows), not its image")
      }
      if cell["animated"] as? Bool == true {
        animated += 1
        #expect(cell["changed"] as? Bool == true, "animated \(url) did not change between screenshots")
      } else {
        #expect(cell["changed"] as? Bool == false, "still \(url) changed between screenshots")
      }
    }
    #expect(animated >= 1, "no animated cell on screen")
    #expect(broken >= 1, "no broken cell on screen")
  }

  private func checkStats(_ stats: [String: Int]) {
    #expect(stats["loading"] == 0)
    #expect((stats["network"] ?? 0) > 0)
    // The second pass finds what the memory cache dropped on the disk.
    #expect((stats["disk"] ?? 0) > 0)
    #expect((stats["failed"] ?? 0) > 0)
  }

  private func checkMemory(_ report: [String: Any]) {
    let baseline = report["baselineResidentBytes"] as? Int ?? 0
    let limit = report["memoryLimitBytes"] as? Int ?? 0
    // Keep the whole-number figures (a pass's seconds are not).
    let passes = (report["passes"] as? [[String: Any]] ?? []).map { $0.compactMapValues { $0 as? Int } }
    guard passes.count == 3 else {
      Issue.record("no pass figures")
      return
    }
    for pass in passes {
      let resident = pass["trimmedResidentBytes"] ?? 0
      let shown = pass["shownImageBytes"] ?? 0
      let cells = pass["cellsBound"] ?? 0
      let cellPixels = pass["cellPixels"] ?? 0
      let renderCopies = cells * cellPixels * 4
      let bound = baseline + limit + shown + renderCopies + Self.allowance
      print(
        "gallery memory after pass \(pass["pass"] ?? 0): resident \(resident >> 20) MB"
          + " (\((pass["residentBytes"] ?? 0) >> 20) MB before malloc_trim); baseline \(baseline >> 20) MB"
          + " + memory cache limit \(limit >> 20) MB + images in \(cells) bound cells \(shown >> 20) MB"
          + " + their render copies \(renderCopies >> 20) MB + allowance \(Self.allowance >> 20) MB"
          + " = \(bound >> 20) MB")
      #expect(resident <= bound)
      // Cells hold cell-sized pixels (the request resizes), not the photos'.
      #expect((pass["largestShownStillPixels"] ?? .max) <= cellPixels)
    }
    // Another full scroll from the disk (2,000 more loads, like the pass
    // before it) must not grow memory beyond allocator noise: nothing
    // leaks per load. (From the network to the disk it may: other buffers.)
    let growth = (passes[2]["trimmedResidentBytes"] ?? 0) - (passes[1]["trimmedResidentBytes"] ?? 0)
    #expect(growth <= 16 << 20, "resident memory grew \(growth >> 20) MB over the third pass")
  }
}
