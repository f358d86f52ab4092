import Foundation
import Testing

@testable import Magpie

/// Willem van Schaik's PngSuite against pypng-made reference digests
/// (Scripts/fixtures/make_png_fixtures.py): every valid image decodes to the
/// expected pixels, interlaced images match their non-interlaced twins, and
/// every deliberately corrupt `x*` file fails with a reason.
// Conformance to PngSuite itself: skipped where its files are absent (a clone
// without ../shared), since no generated image can stand in for them.
@Suite(.enabled(if: TestPaths.pngSuite != nil, "\(TestPaths.missing("pngsuite"))"))
struct PNGSuiteTests {
  static let folder = TestPaths.testData.appendingPathComponent("pngsuite")

  static let allNames: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".png") }.sorted()
  }()
  static let validNames = allNames.filter { !$0.hasPrefix("x") }
  static let corruptNames = allNames.filter { $0.hasPrefix("x") }
  /// Interlaced files with a non-interlaced twin: basi* / basn* and s??i* / s??n*.
  static let interlacedNames = allNames.filter { name in
    let twin = twinName(of: name)
    return twin != name && allNames.contains(twin)
  }

  /// `basi0g01.png` -> `basn0g01.png`, `s05i3p02.png` -> `s05n3p02.png`.
  static func twinName(of name: String) -> String {
    if name.hasPrefix("basi") { return "basn" + name.dropFirst(4) }
    let chars = Array(name)
    if chars.count > 4, chars[0] == "s", chars[3] == "i" { return String(chars[0..<3]) + "n" + String(chars[4...]) }
    return name
  }

  /// name -> (width, height, SHA-256 of the straight RGBA8 pixels as stored).
  static let reference: [String: (width: Int, height: Int, digest: String)] = {
    guard let data = try? TestPaths.fixture("png/pngsuite_reference.json"),
      let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let files = json["files"] as? [String: [Any]]
    else { return [:] }
    var table: [String: (Int, Int, String)] = [:]
    for (name, entry) in files {
      if let w = entry[0] as? Int, let h = entry[1] as? Int, let digest = entry[2] as? String {
        table[name] = (w, h, digest)
      }
    }
    return table
  }()

  /// What each corrupt file's error must say (PngSuite.README names the flaw).
  static let expectedReasons: [String: String] = [
    "xc1n0g08.png": "color type", "xc9n2c08.png": "color type", "xcrn0g04.png": "ASCII conversion",
    "xcsn0g01.png": "IDAT: CRC error", "xd0n2c08.png": "bit depth", "xd3n2c08.png": "bit depth",
    "xd9n2c08.png": "bit depth", "xdtn0g01.png": "no image data", "xhdn0g08.png": "IHDR: CRC error",
    "xlfn0g04.png": "ASCII conversion", "xs1n0g01.png": "Not a PNG file", "xs2n0g01.png": "Not a PNG file",
    "xs4n0g01.png": "Not a PNG file", "xs7n0g01.png": "ASCII conversion",
  ]

  static func load(_ name: String) throws -> Data {
    try Data(contentsOf: folder.appendingPathComponent(name))
  }

  @Test func suiteAndReferenceAreComplete() {
    // 176 files: 161 valid (PngSuite.png included) and 14 corrupt.
    #expect(Self.validNames.count >= 150)
    #expect(Self.corruptNames.count == 14)
    #expect(Self.interlacedNames.count >= 30)
    #expect(Set(Self.validNames) == Set(Self.reference.keys))
  }

  @Test(arguments: validNames) func decodesToReferencePixels(name: String) throws {
    let image = try PNGCoder().decode(try Self.load(name), options: DecodeOptions())
    let expected = try #require(Self.reference[name])
    #expect(image.frames.count == 1)
    #expect(image.format == .png)
    #expect(image.pixelSize == PixelSize(width: expected.width, height: expected.height))
    #expect(PNGReferenceDigest.sha256Hex(image.pixels.straightRGBA()) == expected.digest, "pixels of \(name)")
  }

  @Test(arguments: ["basn6a16", "basn4a08", "tbbn3p08", "basn0g16"])
  func matchesRawReferenceDumps(stem: String) throws {
    let image = try PNGCoder().decode(try Self.load(stem + ".png"), options: DecodeOptions())
    let expected = [UInt8](try TestPaths.fixture("png/pngsuite_\(stem).rgba"))
    let decoded = image.pixels.straightRGBA()
    func pixel(_ bytes: [UInt8], _ i: Int) -> [UInt8] { Array(bytes[(i * 4)..<(i * 4 + 4)]) }
    if let i = (0..<(32 * 32)).first(where: { pixel(decoded, $0) != pixel(expected, $0) }) {
      Issue.record("\(stem) (\(i % 32), \(i / 32)): decoded \(pixel(decoded, i)), expected \(pixel(expected, i))")
    }
  }

  @Test(arguments: interlacedNames) func interlacedMatchesTwin(name: String) throws {
    let interlaced = try PNGCoder().decode(try Self.load(name), options: DecodeOptions())
    let plain = try PNGCoder().decode(try Self.load(Self.twinName(of: name)), options: DecodeOptions())
    #expect(interlaced.pixels == plain.pixels, "\(name) vs \(Self.twinName(of: name))")
    #expect(interlaced.pixels.isOpaque == plain.pixels.isOpaque)
  }

  @Test(arguments: corruptNames) func corruptFileFails(name: String) throws {
    let data = try Self.load(name)
    do {
      let image = try PNGCoder().decode(data, options: DecodeOptions())
      Issue.record("\(name) decoded to \(image.pixelSize)")
    } catch {
      #expect(error.code == .corruptData, "\(name): \(error)")
      let fragment = try #require(Self.expectedReasons[name], "no expected reason for \(name)")
      #expect(error.reason.contains(fragment), "\(name): \(error.reason)")
    }
  }
}
