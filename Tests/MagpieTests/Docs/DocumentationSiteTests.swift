import Foundation
import Magpie
import Testing

/// The built DocC site in headless Chromium (`Scripts/docs/check_site.py`):
/// the landing page, three articles (Getting Started, the GTK views
/// article and the serve article) and a symbol page render with their titles, DocC's navigation and a code block, and print
/// nothing to the console. This test runs the script, then reads its
/// report and screenshots again on its own.
///
/// It reads `.build/docs`, which `make test` builds (`make docs`) before
/// the suites; it fails (never skips) without it or without Chromium
/// (`make test` installs it). The screenshots stay in
/// `.build/artifacts/docs`.
@Suite("Documentation site")
struct DocumentationSiteTests {
  static let artifacts = TestPaths.repositoryRoot.appendingPathComponent(".build/artifacts/docs")

  @Test("the site's pages render in headless Chromium", .timeLimit(Sanitizer.timeLimit(minutes: 5)))
  func pagesRender() async throws {
    let site = TestPaths.repositoryRoot.appendingPathComponent(".build/docs/Magpie/index.html")
    try #require(FileManager.default.fileExists(atPath: site.path), "no \(site.path): run make docs first")
    let status = try await BlockingWork.onThread {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
      process.arguments = [
        TestPaths.repositoryRoot.appendingPathComponent("Scripts/docs/check_site.py").path,
        "--site", TestPaths.repositoryRoot.appendingPathComponent(".build/docs").path,
        "--out", Self.artifacts.path,
      ]
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus
    }
    #expect(status == 0, "Scripts/docs/check_site.py failed; see its output above")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: Self.artifacts.appendingPathComponent("report.json")))
        as? [[String: Any]])
    let titles = report.compactMap { $0["title"] as? String }
    #expect(
      titles == [
        "Magpie | Documentation", "Getting Started | Documentation", "Loading Images into GTK Views | Documentation",
        "Running magpie serve Behind nginx | Documentation", "ImageManager | Documentation",
      ])
    for page in report {
      let name = page["name"] as? String ?? "?"
      #expect(page["navigation"] as? Bool == true, "\(name): no navigation")
      #expect((page["codeBlocks"] as? Int ?? 0) >= 1, "\(name): no code block")
      #expect((page["console"] as? [String])?.isEmpty == true, "\(name): \(page["console"] ?? "")")
      try Self.expectDrawn(Self.artifacts.appendingPathComponent("\(name).png"), name: name)
    }
  }

  /// The screenshot is the window's size and not blank: text, the
  /// navigator's icons and the code's colours give hundreds of colours,
  /// an empty page one.
  static func expectDrawn(_ file: URL, name: String) throws {
    let pixels = try #require(try CoderRegistry.shared.decode(Data(contentsOf: file)).frames.first).pixels
    #expect(pixels.size == PixelSize(width: 1280, height: 900), "\(name)")
    let colours = ScreenshotColours.count(in: pixels, rowStep: 3)
    #expect(colours >= 100, "\(name): the screenshot has \(colours) colours")
  }
}
