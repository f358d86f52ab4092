import Foundation
import Magpie
import Testing

#if canImport(MagpieServer)
  import MagpieServer
#endif

/// The Limits, Performance, Command Line and serve articles: their Swift
/// runs, their commands name options the `magpie` usage lists, and their
/// benchmark rows are the README's.
@Suite("Article snippets run: limits, performance, commands")
struct OperationsArticleRunTests {
  static let root = TestPaths.repositoryRoot

  @Test("the Limits article's manager refuses a body over its 16 MiB cap, by its refusal")
  func theStrictManagerRefusesALargeBody() async throws {
    let folder = try TemporaryDirectory()
    try Data(count: 17 << 20).write(to: folder.url.appendingPathComponent("large.jpg"))
    let nginx = try NginxOrigin(serving: folder.url)
    defer { nginx.stop() }
    let manager = try LimitsSnippets.strictManager()
    #expect(manager.configuration.decodeLimits.maxPixelCount == 24_000_000)
    let error = await #expect(throws: MagpieError.self) {
      try await manager.image(for: ImageRequest(url: nginx.url("/large.jpg")))
    }
    #expect(error?.code == .invalidResponse)
    #expect(error?.refusal == .maximumBodySize)
    await LimitsSnippets.describeFailure(manager, nginx.url("/large.jpg"))
  }

  @Test("the Performance article's requests decode small, and its prefetch fills the caches once")
  func thePerformanceCodeRuns() async throws {
    let names = ["photo-04.jpg", "photo-05.jpg", "photo-06.jpg"]  // 1280x720, 960x960, 1600x1067
    let folder = try TemporaryDirectory()
    let nginx = try NginxOrigin(serving: try folder.servingSamples(names))
    defer { nginx.stop() }
    let manager = try PerformanceSnippets.batchManager()
    let cell = try await manager.image(for: PerformanceSnippets.cellRequest(nginx.url("/photo-04.jpg")))
    #expect(max(cell.image.pixels.width, cell.image.pixels.height) == 320)
    let wide = try await manager.image(for: PerformanceSnippets.targetSizeRequest(nginx.url("/photo-06.jpg")))
    #expect(wide.image.pixels.width >= 1280 && wide.image.pixels.height >= 720, "\(wide.image.pixels.size)")
    let urls = names.map { nginx.url("/\($0)") }
    let first = await PerformanceSnippets.prefetchThumbnails(manager, urls)
    #expect(first.finished == 3)
    let second = await PerformanceSnippets.prefetchThumbnails(manager, urls)
    #expect(second.skipped == 3)
  }

  #if canImport(MagpieServer)
    @Test("the serve article's Swift signs a path the server's signer verifies")
    func theSignedPathVerifies() throws {
      let key = String(repeating: "ab", count: 32)
      let salt = String(repeating: "cd", count: 16)
      let source = URL(string: "https://images.example.com/cat.jpg")!
      let path = try ServeSnippets.signedThumbnailPath(key: key, salt: salt, source: source)
      let parts = path.dropFirst().split(separator: "/", maxSplits: 1).map(String.init)
      #expect(parts.count == 2)
      #expect(parts[1].hasPrefix("rt:fill/w:300/h:200/g:sm/plain/https%3A%2F%2Fimages.example.com"))
      #expect(parts[1].hasSuffix("@webp"))
      let signer = try URLSigner(hexKey: key, hexSalt: salt)
      #expect(signer.verifies(parts[0], for: "/" + parts[1]))
      #expect(!signer.verifies(parts[0], for: "/" + parts[1].replacingOccurrences(of: "300", with: "301")))
    }
  #endif

  @Test("every magpie command the articles show uses a command and options that `magpie help` lists")
  func theArticlesCommandsAreInTheUsage() async throws {
    let help = try await CLIRunner.run(["help"])
    #expect(help.status == 0)
    var checked = 0
    for (name, text) in try DocumentationSnippetTests.articles() where name.contains(".docc/") {
      for command in ArticleCommands.magpieCommands(inShellBlocksOf: text) {
        let problems = ArticleCommands.problems(command, usage: help.stdout)
        #expect(problems.isEmpty, "\(name): `\(command)`: \(problems)")
        checked += 1
      }
    }
    #expect(checked >= 10)
    // The check tells a renamed option apart.
    #expect(!ArticleCommands.problems("magpie play x.gif --modes bounce", usage: help.stdout).isEmpty)
    #expect(!ArticleCommands.problems("magpie paly x.gif", usage: help.stdout).isEmpty)
  }

  @Test("the Performance article's table rows are the README's, figure for figure")
  func thePerformanceFiguresAreTheReadmes() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let article = try String(
      contentsOf: Self.root.appendingPathComponent("Sources/Magpie/Magpie.docc/Performance.md"), encoding: .utf8)
    let rows = article.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| work ") }
    #expect(rows.count >= 5)
    let readmeLines = Set(readme.split(separator: "\n"))
    let missing = rows.filter { !readmeLines.contains($0) }
    #expect(missing.isEmpty, "not in the README: \(missing)")
  }
}
