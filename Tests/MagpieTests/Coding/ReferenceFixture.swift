import Foundation
import Testing

@testable import Magpie

/// A fixture of `Fixtures/heif/` or `Fixtures/jxl/` (written by
/// Scripts/fixtures/make_heif_jxl_fixtures.py) and its reference pixels
/// from the format's own tool (heif-convert, djxl): raw straight RGBA8,
/// every frame's canvas one after another.
struct ReferenceFixture: Decodable {
  /// Canvas width in pixels.
  var width: Int
  /// Canvas height in pixels.
  var height: Int
  /// Frames in the reference.
  var frames: Int
  /// Each frame's duration in milliseconds; `[0]` for a still.
  var delays_ms: [Int]
  /// The loop count the file carries (0: forever, and for stills).
  var loop_count: Int
  /// The largest per-channel difference a decoder may show.
  var tolerance: Int
  /// Where the expected pixels come from.
  var reference: String

  /// The manifest entry of `folder/name`.
  static func entry(_ folder: String, _ name: String) throws -> ReferenceFixture {
    let all = try JSONDecoder().decode(
      [String: ReferenceFixture].self, from: TestPaths.fixture("\(folder)/manifest.json"))
    return try #require(all[name], "\(name) is not in Fixtures/\(folder)/manifest.json")
  }

  /// The fixture's encoded bytes.
  static func data(_ folder: String, _ name: String) throws -> Data { try TestPaths.fixture("\(folder)/\(name)") }

  /// Reference frame `index` of `folder/name` as a straight buffer.
  static func frame(_ folder: String, _ name: String, _ index: Int = 0) throws -> PixelBuffer {
    let entry = try entry(folder, name)
    let bytes = [UInt8](try TestPaths.fixture("\(folder)/\(name).rgba"))
    let count = entry.width * entry.height * 4
    let frame = Array(bytes[(index * count)..<((index + 1) * count)])
    return PixelBuffer(width: entry.width, height: entry.height, straightRGBA: frame)
  }

  /// The largest per-channel difference between two straight buffers of
  /// one size (`Int.max` when the sizes differ).
  static func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
    guard a.size == b.size else { return .max }
    let x = a.straightRGBA()
    let y = b.straightRGBA()
    return zip(x, y).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
  }
}
