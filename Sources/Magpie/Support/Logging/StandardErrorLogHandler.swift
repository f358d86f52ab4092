import Foundation

/// Writes each entry as one line on standard error:
/// `LEVEL source: message name=value ...` (what `magpie --verbose` uses).
public struct StandardErrorLogHandler: MagpieLogging.Handler {
  /// A handler writing to standard error.
  public init() {}

  /// Writes `entry`.
  public func log(_ entry: MagpieLogging.Entry) {
    var line = "\(entry.level.name) \(entry.source): \(entry.message)"
    for (name, value) in entry.metadata.sorted(by: { $0.key < $1.key }) { line += " \(name)=\(value)" }
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
