import Foundation
import Testing

/// The gallery app end to end: its own nginx and Xvfb, the whole grid
/// scrolled three times, screenshots checked (see MagpieGallery's GalleryUITest
/// for how it drives and classifies cells).
@Suite struct GalleryUITests {
  /// Runs the gallery's UI test (its three full scrolls) with loading on
  /// or off against `origin`, and returns its report.
  private func runGallery(loading: Bool, origin: NginxOrigin, output: URL) throws -> [String: Any] {
    let display = try XvfbDisplay.shared.get()
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-gtk-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    try? FileManager.default.removeItem(at: output)
    let run = try ProbeRun.run(
      "MagpieGallery",
      [
        "--base-url", origin.url("/").absoluteString, "--cache-dir", cache.path, "--ui-test", output.path,
        "--load", loading ? "on" : "off",
      ],
      environment: display.environment.merging(["MALLOC_ARENA_MAX": "2"]) { $1 })
    try #require(run.status == 0, "\(run.output)")
    let data = try Data(contentsOf: output.appendingPathComponent("report.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func scrollingTheWholeGalleryShowsImagesAnimationsAndErrors() throws {
    let origin = try NginxOrigin(serving: GTKTestPaths.samples)
    defer { origin.stop() }
    // The control: the same window and scrolls with no image loaded (GTK's
    // own footprint for this grid, the cells and their placeholders).
    let control = try runGallery(
      loading: false, origin: origin, output: GTKTestPaths.artifacts.appendingPathComponent("gallery-control"))
    let output = GTKTestPaths.artifacts.appendingPathComponent("gallery")
    let report = try runGallery(loading: true, origin: origin, output: output)
    print("gallery screenshots: \(output.path)/screenshot-1.png, screenshot-2.png")
    checkCells(try #require(report["cells"] as? [[String: Any]]))
    checkStats(try #require(report["stats"] as? [String: Int]))
    checkMemory(report, control: control)
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

  /// Whole-number figures of each pass of `report`.
  private func passFigures(_ report: [String: Any]) -> [[String: Int]] {
    (report["passes"] as? [[String: Any]] ?? []).map { $0.compactMapValues { $0 as? Int } }
  }

  /// Resident memory as `ps` shows it (no `malloc_trim`) after each pass,
  /// at most the control's after the same pass + the memory cache's limit
  /// + the pixels the bound cells hold + 10 %.
  private func checkMemory(_ report: [String: Any], control: [String: Any]) {
    let limit = report["memoryLimitBytes"] as? Int ?? 0
    let passes = passFigures(report)
    let controlPasses = passFigures(control)
    guard passes.count == 3, controlPasses.count == 3 else {
      Issue.record("no pass figures")
      return
    }
    for (pass, controlPass) in zip(passes, controlPasses) {
      let resident = pass["residentBytes"] ?? 0
      let controlResident = controlPass["residentBytes"] ?? 0
      let shown = pass["shownImageBytes"] ?? 0
      let bound = (controlResident + limit + shown) * 11 / 10
      print(
        "gallery memory after pass \(pass["pass"] ?? 0): resident \(resident >> 20) MB;"
          + " control (no loading) \(controlResident >> 20) MB + memory cache limit \(limit >> 20) MB"
          + " + images in \(pass["cellsBound"] ?? 0) bound cells \(shown >> 20) MB, + 10 % = \(bound >> 20) MB")
      #expect(resident <= bound)
      // That bound has room for a cache over its limit (the gallery's
      // whole image set is about 115 MB): the cache's own count must not.
      #expect((pass["memoryCacheBytes"] ?? .max) <= limit)
      // Cells hold cell-sized pixels (size-aware loads), not the photos'.
      #expect(pass["stillCellsOverAllocation"] == 0)
    }
    print(
      "gallery baseline by kind (MB): \((report["baselineBreakdown"] as? [String: Int] ?? [:]).mapValues { $0 >> 20 })")
    // Another full scroll from the disk (2,000 more loads, like the pass
    // before it) must not grow memory beyond allocator noise: nothing
    // leaks per load. (From the network to the disk it may: other buffers.)
    let growth = (passes[2]["residentBytes"] ?? 0) - (passes[1]["residentBytes"] ?? 0)
    #expect(growth <= 16 << 20, "resident memory grew \(growth >> 20) MB over the third pass")
  }
}
