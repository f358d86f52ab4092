import Foundation
import Testing

/// A new user who reads only the documentation builds a window of images:
/// the app is written from the "Loading Images into GTK Views" article's
/// code blocks alone (its manifest block under the tools-version line the
/// article names, and its Swift blocks in order as `main.swift`), in a
/// clean folder beside a clone of the repository, built from nothing with
/// `swift build`, and run on a private Xvfb against a private nginx.
///
/// `make test` runs this suite as a step of its own (`make
/// test-docs-app`): the clean build takes minutes.
@Suite struct NewUserAppTests {
  static let article = GTKTestPaths.repositoryRoot.appendingPathComponent(
    "MagpieGTK/Sources/MagpieGTK/MagpieGTK.docc/LoadingIntoViews.md")

  @Test func theArticlesAppBuildsAndShowsItsImages() throws {
    let blocks = try ArticleBlocks(markdown: String(contentsOf: Self.article, encoding: .utf8))
    let manifest = try #require(blocks.swift.first { $0.hasPrefix("import PackageDescription") })
    let program = blocks.swift.filter { $0 != manifest }.joined(separator: "\n\n")
    #expect(program.contains("runUntilClosed()"), "the article's last block runs the loop")

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-new-user-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = folder.appendingPathComponent("Photos")
    try FileManager.default.createDirectory(
      at: app.appendingPathComponent("Sources/Photos"), withIntermediateDirectories: true)
    // The clone the article assumes in ../magpie.
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("magpie"), withDestinationURL: GTKTestPaths.repositoryRoot)
    try ("// swift-tools-version:6.0\n" + manifest + "\n").write(
      to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    try (program + "\n").write(
      to: app.appendingPathComponent("Sources/Photos/main.swift"), atomically: true, encoding: .utf8)

    let build = try ChildProcess.run(
      "/usr/bin/env", ["swift", "build", "--package-path", app.path, "-Xswiftc", "-warnings-as-errors"],
      timeout: .seconds(1200))
    try #require(build.status == 0, "swift build failed:\n\(build.output.suffix(4000))")

    let display = try XvfbDisplay.shared.get()
    let origin = try NginxOrigin(serving: GTKTestPaths.samples)
    defer { origin.stop() }
    // Line-buffered, so each completion's line reaches the pipe when printed.
    let run = try ChildProcess.run(
      "/usr/bin/stdbuf",
      ["-oL", app.appendingPathComponent(".build/debug/Photos").path, origin.url("/").absoluteString],
      environment: display.environment, timeout: .seconds(60),
      until: { output in
        output.split(separator: "\n").filter { $0.hasPrefix("loaded ") || $0.hasPrefix("failed ") }.count == 6
      }
    )
    let output = run.output
    let loaded = run.lines(prefixed: "loaded ")
    #expect(loaded.map { $0.split(separator: " ")[0] }.sorted() == (0..<5).map { "photo-0\($0).jpg" }, "\(output)")
    #expect(run.lines(prefixed: "failed ") == ["missing.jpg: HTTP status"], "\(output)")
    // Each photo (800 to 1600 px a side at the origin) was decoded at the size GTK
    // gave its view (about 250x190 in a 760x400 window of three columns).
    for line in loaded {
      let size = line.split(separator: " ")[1].split(separator: "x").compactMap { Int($0) }
      #expect(size.count == 2 && size[0] <= 256 && size[1] <= 256, "\(line)")
    }
    #expect(run.stoppedByTest, "the window stays open until closed: \(output)")
  }
}
