import Foundation
import Magpie
import Testing

/// The documentation's code is compiled code: the articles' Swift blocks
/// match the snippet regions of files this target builds, and those run.
@Suite("Documentation snippets")
struct DocumentationSnippetTests {
  static let root = TestPaths.repositoryRoot

  /// Every catalog's articles, the READMEs and `docs/`, by path from the
  /// repository root: every document whose Swift a reader may copy.
  static func articles() throws -> [String: String] {
    var articles: [String: String] = [:]
    let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
    for file in ["README.md", "MagpieGTK/README.md"] + docs.filter({ $0.hasSuffix(".md") }).map({ "docs/\($0)" }) {
      articles[file] = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    }
    for sources in ["Sources", "MagpieGTK/Sources"] {
      let folder = root.appendingPathComponent(sources)
      for module in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        let catalog = folder.appendingPathComponent("\(module)/\(module).docc")
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: catalog.path) else { continue }
        for file in files where file.hasSuffix(".md") {
          articles["\(sources)/\(module)/\(module).docc/\(file)"] = try String(
            contentsOf: catalog.appendingPathComponent(file), encoding: .utf8)
        }
      }
    }
    return articles
  }

  /// Every file that may hold snippet regions: the test target's `Docs`
  /// folder and the example apps under `Tests/Documentation`.
  static func snippetSources() throws -> [String: String] {
    var sources: [String: String] = [:]
    for folder in ["Tests/MagpieTests/Docs", "Tests/Documentation"] {
      let base = root.appendingPathComponent(folder)
      guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
      for case let path as String in walker where path.hasSuffix(".swift") {
        sources["\(folder)/\(path)"] = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
      }
    }
    return sources
  }

  @Test("every Swift block of every article is a compiled snippet, word for word")
  func everyArticleQuotesCompiledCode() throws {
    let (regions, sourceProblems) = SnippetCheck.snippets(in: try Self.snippetSources())
    #expect(sourceProblems.isEmpty, "\(sourceProblems)")
    let articles = try Self.articles()
    var quoted = 0
    for (name, text) in articles.sorted(by: { $0.key < $1.key }) {
      let problems = SnippetCheck.problems(in: text, named: name, regions: regions)
      #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
      quoted += text.components(separatedBy: "<!-- snippet: ").count - 1
    }
    // The check reads something: the articles and their snippets exist.
    #expect(articles.keys.contains("Sources/Magpie/Magpie.docc/GettingStarted.md"))
    #expect(articles.keys.contains("MagpieGTK/Sources/MagpieGTK/MagpieGTK.docc/LoadingIntoViews.md"))
    #expect(articles.keys.contains("README.md"))
    #expect(quoted >= 3)
  }

  @Test("renaming a symbol in the compiled code, as a refactor does, fails the article that quotes it")
  func aRenamedSymbolFailsTheCheck() throws {
    var sources = try Self.snippetSources()
    let file = "Tests/MagpieTests/Docs/GettingStartedSnippets.swift"
    let original = try #require(sources[file])
    sources[file] = original.replacingOccurrences(
      of: "ImageManager(configuration:", with: "ImagePipeline(configuration:")
    let article = try #require(try Self.articles()["Sources/Magpie/Magpie.docc/GettingStarted.md"])
    let problems = SnippetCheck.problems(
      in: article, named: "GettingStarted.md", regions: SnippetCheck.snippets(in: sources).regions)
    #expect(problems.count == 1)
    #expect(problems.first?.reason.contains("'first-load' differs") == true)
    #expect(problems.first?.reason.contains("ImagePipeline(configuration:") == true)
    // A region removed from the code leaves the article quoting nothing.
    sources[file] = original.replacingOccurrences(of: "// snippet.begin second-load", with: "// gone")
      .replacingOccurrences(of: "    // snippet.end\n    return again", with: "    return again")
    let gone = SnippetCheck.problems(
      in: article, named: "GettingStarted.md", regions: SnippetCheck.snippets(in: sources).regions)
    #expect(gone.map(\.reason) == ["snippet 'second-load' is in no compiled file"])
    // A Swift block with no snippet marker is refused.
    let unmarked = SnippetCheck.problems(in: "Text\n```swift\nlet x = 1\n```\n", named: "A.md", regions: [:])
    #expect(unmarked.map(\.line) == [2])
  }

  @Test("the Getting Started code loads an image, then answers from memory")
  func theGettingStartedCodeRuns() async throws {
    let folder = try TemporaryDirectory()
    let nginx = try NginxOrigin(serving: try folder.servingSamples(["photo-01.jpg"]))
    defer { nginx.stop() }
    let url = nginx.url("/photo-01.jpg")
    let result = try await GettingStartedSnippets.firstLoad(url)
    #expect(result.cacheType == .none)
    #expect(max(result.image.pixels.width, result.image.pixels.height) == 256)
    // The same manager configuration, the same request: from memory.
    let manager = try ImageManager(configuration: .standard(namespace: "photos"))
    let request = ImageRequest(
      url: url, processors: [ImageProcessors.Downsampling(size: PixelSize(width: 256, height: 256))])
    _ = try await manager.image(for: request)
    #expect(try await GettingStartedSnippets.secondLoad(manager, request) == .memory)
    let whole = try await GettingStartedSnippets.shortestLoad(url)
    #expect(whole.image.pixels.size == PixelSize(width: 1200, height: 800))
  }

  @Test("the Getting Started manifest compiles and names the product and the path")
  func theManifestCompiles() async throws {
    let folder = try TemporaryDirectory()
    let app = folder.url.appendingPathComponent("Photos")
    try FileManager.default.copyItem(
      at: Self.root.appendingPathComponent("Tests/Documentation/FirstApp"), to: app)
    let output = folder.url.appendingPathComponent("manifest.json")
    let status = try await BlockingWork.onThread {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["swift", "package", "--package-path", app.path, "dump-package"]
      _ = FileManager.default.createFile(atPath: output.path, contents: nil)
      process.standardOutput = try FileHandle(forWritingTo: output)
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus
    }
    #expect(status == 0)
    let text = try String(contentsOf: output, encoding: .utf8)
    let manifest = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(manifest["name"] as? String == "Photos")
    #expect(text.contains("magpie"))
    #expect(text.contains("\"Magpie\""))
  }
}
