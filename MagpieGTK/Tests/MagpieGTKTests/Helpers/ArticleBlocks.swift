import Foundation

/// The code blocks of a DocC article, in the order a reader meets them.
struct ArticleBlocks {
  /// The contents of each ```` ```swift ```` block.
  let swift: [String]

  init(markdown: String) {
    var blocks: [String] = []
    var swiftLines: [Substring]?
    var inOtherBlock = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      let fence = line.trimmingCharacters(in: .whitespaces)
      if let lines = swiftLines {
        if fence == "```" {
          blocks.append(lines.joined(separator: "\n"))
          swiftLines = nil
        } else {
          swiftLines?.append(line)
        }
      } else if inOtherBlock {
        inOtherBlock = fence != "```"
      } else if fence == "```swift" {
        swiftLines = []
      } else if fence.hasPrefix("```") {
        inOtherBlock = true
      }
    }
    swift = blocks
  }
}
