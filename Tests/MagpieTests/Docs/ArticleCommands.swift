import Foundation

/// The `magpie` command lines a document shows in its shell blocks, and
/// whether the CLI's usage still lists their command and options: an
/// option renamed in the code fails the document that shows the old name.
enum ArticleCommands {
  /// Each `magpie …` command of the ```` ```shell ```` blocks, from
  /// `magpie` to the end of its command (a `#` comment, `&` or `;`).
  static func magpieCommands(inShellBlocksOf markdown: String) -> [String] {
    var commands: [String] = []
    var inShell = false
    for line in markdown.split(separator: "\n") {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("```") {
        inShell = trimmed == "```shell"
        continue
      }
      guard inShell else { continue }
      let words = shellWords(trimmed)
      // Leading NAME=VALUE assignments belong to the environment.
      let command = words.drop { $0.contains("=") && !$0.hasPrefix("-") }
      guard command.first == "magpie" else { continue }
      commands.append(command.joined(separator: " "))
    }
    return commands
  }

  /// What the usage text does not list: the command, or an option.
  static func problems(_ command: String, usage: String) -> [String] {
    let words = shellWords(command)
    guard words.count >= 2, words[0] == "magpie" else { return ["not a magpie command"] }
    var problems: [String] = []
    let name = words[1]
    let listed = usage.split(separator: "\n").contains { line in
      line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) == name
    }
    if !listed && !lists(name, in: usage) { problems.append("no command '\(name)'") }
    for option in words.dropFirst(2) where option.hasPrefix("-") && option.count > 1 && !lists(option, in: usage) {
      problems.append("no option '\(option)'")
    }
    return problems
  }

  /// Whether `word` occurs in `usage` as a whole word.
  private static func lists(_ word: String, in usage: String) -> Bool {
    var range = usage.startIndex..<usage.endIndex
    while let found = usage.range(of: word, range: range) {
      let after = found.upperBound == usage.endIndex ? " " : usage[found.upperBound]
      let before = found.lowerBound == usage.startIndex ? " " : usage[usage.index(before: found.lowerBound)]
      if !(after.isLetter || after.isNumber || after == "-") && !(before.isLetter || before.isNumber || before == "-") {
        return true
      }
      range = found.upperBound..<usage.endIndex
    }
    return false
  }

  /// A line's words as a POSIX shell splits them (quotes kept together),
  /// up to a comment or the end of the first command.
  private static func shellWords(_ line: String) -> [String] {
    var words: [String] = []
    var word = ""
    var quote: Character?
    var hasWord = false
    for character in line {
      if let open = quote {
        if character == open { quote = nil } else { word.append(character) }
      } else if character == "'" || character == "\"" {
        quote = character
        hasWord = true
      } else if character == " " || character == "\t" {
        if hasWord { words.append(word) }
        word = ""
        hasWord = false
      } else if character == "#" && !hasWord || character == "&" || character == ";" {
        break
      } else {
        word.append(character)
        hasWord = true
      }
    }
    if hasWord { words.append(word) }
    return words
  }
}
