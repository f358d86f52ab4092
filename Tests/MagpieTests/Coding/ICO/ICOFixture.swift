import Foundation
import Testing

@testable import Magpie

/// A file of Fixtures/ico (Scripts/fixtures/make_ico_fixtures.py) and its
/// entries' expected pixels, largest first.
struct ICOFixture: Decodable {
  struct Entry: Decodable {
    var width: Int
    var height: Int
    var bits: Int
    var hotspot: [Int]?
    var rgba: String
  }

  var entries: [Entry]
  var reference: String

  static let all: [String: ICOFixture] = {
    guard let data = try? TestPaths.fixture("ico/manifest.json") else { return [:] }
    return (try? JSONDecoder().decode([String: ICOFixture].self, from: data)) ?? [:]
  }()

  /// Entry `index`'s expected pixels, transparent pixels' colour cleared.
  func pixels(_ index: Int) throws -> [UInt8] {
    Self.clearingTransparent([UInt8](try TestPaths.fixture("ico/\(entries[index].rgba)")))
  }

  /// `rgba` with every pixel of alpha 0 made transparent black, the form
  /// the comparisons use (Magpie keeps a 32-bit entry's stored colour there).
  static func clearingTransparent(_ rgba: [UInt8]) -> [UInt8] {
    var out = rgba
    for i in stride(from: 0, to: out.count, by: 4) where out[i + 3] == 0 {
      out[i] = 0
      out[i + 1] = 0
      out[i + 2] = 0
    }
    return out
  }
}
