#if canImport(MagpieAVIF)
  import Foundation
  import Magpie
  import MagpieAVIF

  /// The AVIF fixtures Scripts/fixtures/make_avif_fixtures.py writes
  /// (Fixtures/avif): avifenc encodes of our own photos, with avifdec's
  /// decodes (transforms applied by the script) as straight RGBA8.
  enum AVIFFixtures {
    /// One manifest entry.
    struct Entry: Decodable {
      var width: Int
      var height: Int
      var frames: Int
      var depth: Int
      var yuv: String
      var alpha: Bool
      var orientation: Int
      var delays_ms: [Int]
    }

    /// Every fixture, by file name.
    static let manifest: [String: Entry] = {
      let data = try! TestPaths.fixture("avif/manifest.json")
      return try! JSONDecoder().decode([String: Entry].self, from: data)
    }()

    /// The still fixtures' names, sorted.
    static let stills = manifest.filter { $0.value.frames == 1 }.keys.sorted()

    /// The fixture's bytes.
    static func data(_ name: String) throws -> Data { try TestPaths.fixture("avif/\(name)") }

    /// The fixture's reference frames, one packed straight RGBA8 array each.
    static func reference(_ name: String) throws -> [[UInt8]] {
      let entry = manifest[name]!
      let bytes = [UInt8](try TestPaths.fixture("avif/\(name).rgba"))
      let frameBytes = entry.width * entry.height * 4
      return (0..<entry.frames).map { Array(bytes[($0 * frameBytes)..<(($0 + 1) * frameBytes)]) }
    }

    /// `buffer`'s pixels as packed straight RGBA8.
    static func straight(_ buffer: PixelBuffer) -> [UInt8] { buffer.straightRGBA() }

    /// Largest per-channel difference between two equal-length arrays.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
      zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// PSNR in dB over the RGB channels of two packed RGBA arrays.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double { GIFWebPFixtureTests.psnr(a, b) }
  }
#endif
