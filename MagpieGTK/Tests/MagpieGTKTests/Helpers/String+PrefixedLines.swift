extension String {
  /// The lines that start with `prefix`, without it: what a child process
  /// said in its `loaded …` or `peak-rss-kb …` lines.
  func lines(prefixed prefix: String) -> [String] {
    split(separator: "\n").compactMap { line in
      line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
    }
  }
}
