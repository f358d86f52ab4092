import Foundation

/// The gallery's command line: `MagpieGallery --base-url URL --cache-dir DIR
/// [--count N] [--memory-mb N] [--ui-test OUT]`.
struct GalleryOptions {
  var baseURL = "http://127.0.0.1:8080/"
  var cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-gallery-cache").path
  var count = 2_000
  /// The memory cache's budget.
  var memoryLimit = 48 << 20
  /// With a folder: scroll the whole grid three times, write screenshots and
  /// report.json there, and exit.
  var uiTestOutput: String?
  /// `--load off`: cells bind but load nothing (the memory control run).
  var loadsImages = true
  /// `--renderer cairo` (the default: software, GL never opened) or `gl`
  /// (GTK's default renderer).
  var renderer = "cairo"

  init(_ arguments: [String]) throws {
    var rest = arguments[...]
    while let flag = rest.popFirst() {
      guard let value = rest.popFirst() else { throw GalleryError.usage("\(flag) needs a value") }
      switch flag {
      case "--base-url": baseURL = value.hasSuffix("/") ? value : value + "/"
      case "--cache-dir": cacheDirectory = value
      case "--count": count = try Self.number(value, flag)
      case "--memory-mb": memoryLimit = try Self.number(value, flag) << 20
      case "--ui-test": uiTestOutput = value
      case "--load" where value == "on" || value == "off": loadsImages = value == "on"
      case "--renderer" where value == "cairo" || value == "gl": renderer = value
      default: throw GalleryError.usage("unknown option \(flag)")
      }
    }
  }

  private static func number(_ value: String, _ flag: String) throws -> Int {
    guard let number = Int(value), number > 0 else { throw GalleryError.usage("\(flag) takes a positive number") }
    return number
  }
}
