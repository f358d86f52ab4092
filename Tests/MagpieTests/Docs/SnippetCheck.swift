import Foundation

/// Keeps the documentation's code true: every Swift code block in an
/// article is preceded by `<!-- snippet: NAME -->` and is, line for line,
/// the region `// snippet.begin NAME` … `// snippet.end` of a source file
/// that the test target compiles. A renamed or removed symbol breaks the
/// build of that file; an edit to the file that the article does not
/// follow breaks this check.
struct SnippetCheck {
  /// One problem found, said so that a reader can fix it.
  struct Problem: Equatable, CustomStringConvertible {
    var file: String
    var line: Int
    var reason: String
    var description: String { "\(file):\(line): \(reason)" }
  }

  /// The regions by name, from `sources` (file name → text).
  static func snippets(in sources: [String: String]) -> (regions: [String: String], problems: [Problem]) {
    var regions: [String: String] = [:]
    var problems: [Problem] = []
    for (file, text) in sources.sorted(by: { $0.key < $1.key }) {
      var open: (name: String, indent: Int, line: Int, lines: [Substring])?
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let trimmed = line.drop { $0 == " " }
        if trimmed.hasPrefix("// snippet.begin ") {
          let name = String(trimmed.dropFirst("// snippet.begin ".count))
          if open != nil { problems.append(Problem(file: file, line: index + 1, reason: "snippet inside a snippet")) }
          if regions[name] != nil {
            problems.append(Problem(file: file, line: index + 1, reason: "snippet '\(name)' defined twice"))
          }
          open = (name, line.count - trimmed.count, index + 1, [])
        } else if trimmed == "// snippet.end" {
          guard let region = open else {
            problems.append(Problem(file: file, line: index + 1, reason: "snippet.end without a begin"))
            continue
          }
          regions[region.name] = region.lines.map { String($0.dropFirst(min(region.indent, leading($0)))) }
            .joined(separator: "\n")
          open = nil
        } else if open != nil {
          open?.lines.append(line)
        }
      }
      if let region = open {
        problems.append(Problem(file: file, line: region.line, reason: "snippet '\(region.name)' never ends"))
      }
    }
    return (regions, problems)
  }

  /// What is wrong with `article`'s Swift blocks, against `regions`.
  static func problems(in article: String, named name: String, regions: [String: String]) -> [Problem] {
    var problems: [Problem] = []
    let lines = article.split(separator: "\n", omittingEmptySubsequences: false)
    var index = 0
    while index < lines.count {
      let fence = lines[index].trimmingCharacters(in: .whitespaces)
      guard fence.hasPrefix("```") else {
        index += 1
        continue
      }
      let start = index
      var end = index + 1
      while end < lines.count && lines[end].trimmingCharacters(in: .whitespaces) != "```" { end += 1 }
      defer { index = end + 1 }
      guard fence == "```swift" else { continue }
      let marker = start > 0 ? lines[start - 1].trimmingCharacters(in: .whitespaces) : ""
      guard marker.hasPrefix("<!-- snippet: "), marker.hasSuffix(" -->") else {
        problems.append(Problem(file: name, line: start + 1, reason: "a Swift block without <!-- snippet: NAME -->"))
        continue
      }
      let snippet = String(marker.dropFirst("<!-- snippet: ".count).dropLast(" -->".count))
      let quoted = lines[(start + 1)..<min(end, lines.count)].joined(separator: "\n")
      guard let region = regions[snippet] else {
        problems.append(Problem(file: name, line: start + 1, reason: "snippet '\(snippet)' is in no compiled file"))
        continue
      }
      if quoted != region {
        let quotedLines = quoted.split(separator: "\n", omittingEmptySubsequences: false)
        let regionLines = region.split(separator: "\n", omittingEmptySubsequences: false)
        let first =
          zip(quotedLines, regionLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
          ?? min(quotedLines.count, regionLines.count)
        let compiled = first < regionLines.count ? String(regionLines[first]) : "(nothing)"
        problems.append(
          Problem(
            file: name, line: start + 2 + first,
            reason: "snippet '\(snippet)' differs from the compiled code, which reads: \(compiled)"))
      }
    }
    return problems
  }

  private static func leading(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }
}
