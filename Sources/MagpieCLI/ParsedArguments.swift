/// Command-line words split into positional arguments and `--options`.
///
/// Options may come anywhere, as `--name value` or `--name=value`; `--`
/// ends options. Only the options a command declares are accepted.
struct ParsedArguments {
  private(set) var positionals: [String] = []
  private var values: [String: String] = [:]
  private var repeated: [String: [String]] = [:]
  private var flags: Set<String> = []

  /// Parses `words` for a command that takes the value options `valued`
  /// (names with their dashes, e.g. `"--out"`, `"-o"`) and the switches
  /// `switches`.
  init(_ words: [String], valued: Set<String> = [], switches: Set<String> = []) throws(CLIError) {
    var index = 0
    var optionsEnded = false
    while index < words.count {
      let word = words[index]
      index += 1
      if optionsEnded || !word.hasPrefix("-") || word == "-" {
        positionals.append(word)
        continue
      }
      if word == "--" {
        optionsEnded = true
        continue
      }
      var name = word
      var inlineValue: String?
      if let equals = word.firstIndex(of: "="), word.hasPrefix("--") {
        name = String(word[..<equals])
        inlineValue = String(word[word.index(after: equals)...])
      }
      if switches.contains(name) && inlineValue == nil {
        flags.insert(name)
      } else if valued.contains(name) {
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          guard index < words.count else { throw .usage(name, "needs a value") }
          value = words[index]
          index += 1
        }
        values[name] = value
        repeated[name, default: []].append(value)
      } else {
        throw .usage(name, "unknown option")
      }
    }
  }

  /// Every value given for `name`, in order (an option given more than once).
  func values(_ name: String) -> [String] { repeated[name] ?? [] }

  /// The value given for `name`, if any (the last, when given more than once).
  func value(_ name: String) -> String? { values[name] }

  /// Whether the switch `name` was given.
  func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The value of `name` as an integer in `range`, or `defaultValue`.
  func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws(CLIError) -> Int {
    guard let text = values[name] else { return defaultValue }
    guard let number = Int(text), range.contains(number) else {
      throw .usage(name, "expected a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
    }
    return number
  }
}
