import Foundation

extension FuzzHarness {
  /// The folder under the fixtures that holds this harness's regression
  /// inputs: every crash it found, kept after the fix.
  public func regressionFolder(fixtures: URL) -> URL {
    fixtures.appendingPathComponent("fuzz").appendingPathComponent(name)
  }

  /// The seed inputs: every fixture under `fixtures` (outside `fuzz/`) with
  /// one of ``seedExtensions`` and at most ``maxLength`` bytes, then
  /// ``seedTexts``; each with a file name for the corpus, in a stable order.
  public func seeds(fixtures: URL) -> [(name: String, data: Data)] {
    let files = Self.files(under: fixtures).filter {
      seedExtensions.contains($0.pathExtension.lowercased()) && !$0.path.hasPrefix(regressionRoot(fixtures).path)
    }
    var seeds: [(name: String, data: Data)] = []
    for file in files {
      guard let data = try? Data(contentsOf: file), data.count <= maxLength else { continue }
      let relative = file.path.dropFirst(fixtures.path.count + 1)
      seeds.append((relative.replacingOccurrences(of: "/", with: "_"), data))
    }
    for (index, text) in seedTexts.enumerated() {
      seeds.append(("text-\(index)", Data(text.utf8)))
    }
    return seeds
  }

  /// The regression inputs under ``regressionFolder(fixtures:)``, sorted.
  public func regressionInputs(fixtures: URL) -> [(name: String, data: Data)] {
    Self.files(under: regressionFolder(fixtures: fixtures)).compactMap { file in
      (try? Data(contentsOf: file)).map { (file.lastPathComponent, $0) }
    }
  }

  private func regressionRoot(_ fixtures: URL) -> URL {
    fixtures.appendingPathComponent("fuzz").standardizedFileURL
  }

  /// Every regular file under `folder`, sorted by path.
  private static func files(under folder: URL) -> [URL] {
    let root = folder.standardizedFileURL
    guard
      let walker = FileManager.default.enumerator(
        at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
    else { return [] }
    var found: [URL] = []
    for case let url as URL in walker
    where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
      found.append(url.standardizedFileURL)
    }
    return found.sorted { $0.path < $1.path }
  }
}
