import Foundation
import Magpie

/// `magpie cache info|clean|clear [--cache-dir DIR]`: the disk cache's size
/// and count; clean removes expired files, then the oldest until under the
/// size limit; clear removes all. Prints `{"count","bytes","path"}` after.
enum CacheCommand {
  static func run(_ words: [String]) throws(CLIError) {
    let arguments = try ParsedArguments(words, valued: ["--cache-dir", "--size-limit", "--max-age-days"])
    guard arguments.positionals.count == 1, let action = arguments.positionals.first,
      ["info", "clean", "clear"].contains(action)
    else {
      throw .usage("cache", "expected one of info, clean, clear")
    }
    let sizeLimit = try arguments.value("--size-limit").map { (text) throws(CLIError) in try byteCount(text) }
    let maxAge = try arguments.integer("--max-age-days", in: 0...36_500, default: 7)
    let directory =
      arguments.value("--cache-dir").map { URL(fileURLWithPath: $0) }
      ?? DiskCache.Configuration.defaultDirectory()
    let cache: DiskCache
    do {
      cache = try DiskCache(
        configuration: .init(directory: directory, expiration: .days(maxAge), sizeLimit: sizeLimit))
      switch action {
      case "clean": try cache.clean()
      case "clear": try cache.clear()
      default: break
      }
      let record = JSONValue.object([
        ("count", .int(try cache.count())),
        ("bytes", .int(try cache.totalSize())),
        ("path", .string(directory.path)),
      ])
      print(record.text)
    } catch {
      throw .failure("cache \(action)", error)
    }
  }

  /// `12345`, `64K`, `512M` or `2G` as bytes.
  static func byteCount(_ text: String) throws(CLIError) -> Int {
    let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = Substring(text.uppercased())
    var multiplier = 1
    if let last = digits.last, let unit = units[last] {
      multiplier = unit
      digits = digits.dropLast()
    }
    guard let value = Int(digits), value >= 0, value <= Int.max / multiplier else {
      throw .usage("--size-limit", "expected a size such as 500M, got '\(text)'")
    }
    return value * multiplier
  }
}
