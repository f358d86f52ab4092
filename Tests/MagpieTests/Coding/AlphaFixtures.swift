import Foundation
import Testing

@testable import Magpie

/// The straight-alpha fixtures in `Fixtures/alpha/` that
/// Scripts/fixtures/make_alpha_fixtures.py writes: the manifest, the straight
/// RGBA references and per-pixel tolerances, and a comparison that says
/// where and by how much decoded pixels differ.
enum AlphaFixtures {
  /// One manifest entry: what a fixture's reference holds.
  struct Entry: Decodable {
    /// Canvas width in pixels.
    var width: Int
    /// Canvas height in pixels.
    var height: Int
    /// Number of frames (canvases) in the reference.
    var frames: Int
    /// Frame durations as browsers play them; `[0]` for a still.
    var delays_ms: [Int]
    /// Loop count as Magpie reports it (0 for stills and endless loops).
    var loop_count: Int
    /// Where the expected pixels come from.
    var reference: String
    /// The tolerance file, for animations.
    var tolerance: String?
    /// The size of the shrunk reference (`NAME.scaled.rgba`), where there is one.
    var scaled: Scaled?

    /// The size a shrunk reference has.
    struct Scaled: Decodable {
      /// Width in pixels.
      var width: Int
      /// Height in pixels.
      var height: Int
    }

    /// Bytes in one straight RGBA8 canvas.
    var frameByteCount: Int { width * height * 4 }
  }

  /// The stills: one frame each, every alpha value 0-255 in every row.
  static let stills = [
    "rgba.png", "gray_alpha.png", "palette_trns.png", "still.gif", "lossless.webp", "lossy_alpha.webp",
  ]
  /// The animations.
  static let animations = ["anim.png", "anim.gif", "anim.webp"]

  /// The parsed `manifest.json`.
  static func manifest() throws -> [String: Entry] {
    try JSONDecoder().decode([String: Entry].self, from: TestPaths.fixture("alpha/manifest.json"))
  }

  /// A fixture's manifest entry.
  static func entry(_ name: String) throws -> Entry {
    try #require(try manifest()[name], "\(name) is not in Fixtures/alpha/manifest.json")
  }

  /// The bytes of `Fixtures/alpha/NAME`.
  static func data(_ name: String) throws -> Data { try TestPaths.fixture("alpha/\(name)") }

  /// The expected straight RGBA canvases of a fixture, one packed array per frame.
  static func frames(_ name: String) throws -> [[UInt8]] {
    let entry = try entry(name)
    return split([UInt8](try data("\(name).rgba")), count: entry.frames, size: entry.frameByteCount)
  }

  /// The allowed per-channel difference of every pixel of every frame:
  /// the tolerance file's bytes, or zeros where there is none.
  static func tolerances(_ name: String) throws -> [[UInt8]] {
    let entry = try entry(name)
    let pixels = entry.width * entry.height
    guard let file = entry.tolerance else {
      return Array(repeating: [UInt8](repeating: 0, count: pixels), count: entry.frames)
    }
    return split([UInt8](try data(file)), count: entry.frames, size: pixels)
  }

  private static func split(_ bytes: [UInt8], count: Int, size: Int) -> [[UInt8]] {
    precondition(bytes.count == count * size, "reference of \(bytes.count) bytes, expected \(count * size)")
    return (0..<count).map { Array(bytes[($0 * size)..<(($0 + 1) * size)]) }
  }

  /// How far `actual` is from `expected`: the largest channel difference,
  /// the pixels outside their tolerance and the worst of those.
  struct Comparison {
    /// Largest per-channel difference anywhere.
    var maxDifference = 0
    /// Pixels with a channel further off than their tolerance allows.
    var pixelsOutside = 0
    /// The first pixel furthest outside its tolerance, as "(x, y) actual vs expected".
    var worst = ""
  }

  /// Compares packed RGBA arrays of one canvas, `width` pixels a row;
  /// `tolerance` holds one allowed difference per pixel (nil: all 0).
  static func compare(_ actual: [UInt8], _ expected: [UInt8], tolerance: [UInt8]? = nil, width: Int) -> Comparison {
    precondition(actual.count == expected.count, "sizes differ")
    var result = Comparison()
    var worstExcess = 0
    for pixel in 0..<(actual.count / 4) {
      var difference = 0
      for c in 0..<4 { difference = max(difference, abs(Int(actual[pixel * 4 + c]) - Int(expected[pixel * 4 + c]))) }
      result.maxDifference = max(result.maxDifference, difference)
      let excess = difference - Int(tolerance?[pixel] ?? 0)
      guard excess > 0 else { continue }
      result.pixelsOutside += 1
      if excess > worstExcess {
        worstExcess = excess
        let range = (pixel * 4)..<(pixel * 4 + 4)
        result.worst = "(\(pixel % width), \(pixel / width)) \(Array(actual[range])) vs \(Array(expected[range]))"
      }
    }
    return result
  }

  /// Records an issue unless every pixel of `actual` is within its
  /// tolerance of `expected`, saying how far off the pixels are.
  static func expectPixels(
    _ actual: [UInt8], equal expected: [UInt8], tolerance: [UInt8]? = nil, width: Int, _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard actual.count == expected.count else {
      Issue.record("\(label): \(actual.count) bytes, expected \(expected.count)", sourceLocation: sourceLocation)
      return
    }
    let result = compare(actual, expected, tolerance: tolerance, width: width)
    #expect(
      result.pixelsOutside == 0,
      "\(label): \(result.pixelsOutside) pixels off, max channel difference \(result.maxDifference), worst \(result.worst)",
      sourceLocation: sourceLocation)
  }
}
