import Foundation
import Testing

@testable import Magpie

/// The BMP suite Scripts/fixtures/make_bmp_fixtures.py writes (every header
/// version, depth, bitfield layout and RLE case) decodes to the pattern the
/// script drew, which Pillow reads the same where it reads the file at all.
@Suite struct BMPSuiteTests {
  static let names: [String] = {
    guard let data = try? TestPaths.fixture("bmp/manifest.json"),
      let all = try? JSONDecoder().decode([String: ReferenceFixture].self, from: data)
    else { return [] }
    return all.keys.sorted()
  }()

  private static var preserving: DecodeOptions {
    var options = DecodeOptions()
    options.colorManagement = .preserve
    return options
  }

  @Test func theSuiteIsThere() {
    // Every header version, depth and the two RLE codings.
    #expect(Self.names.count >= 27)
    for prefix in [
      "core-", "info-1", "info-2", "info-4", "info-8", "info-16", "info-24", "info-32", "v2-", "v3-", "v4-", "v5-",
      "rle4", "rle8",
    ] {
      #expect(Self.names.contains { $0.hasPrefix(prefix) }, "no \(prefix) file")
    }
  }

  @Test(arguments: names) func decodesToThePattern(name: String) throws {
    let data = try ReferenceFixture.data("bmp", name)
    #expect(ImageFormat.sniff(data) == .bmp)
    let image = try CoderRegistry.shared.decode(data, options: Self.preserving)
    let reference = try ReferenceFixture.frame("bmp", name)
    #expect(image.format == .bmp)
    #expect(!image.isPartial)
    #expect(image.pixels.alphaRepresentation == .straight)
    let entry = try ReferenceFixture.entry("bmp", name)
    #expect(image.pixels == reference, "\(entry.reference)")
    let opaque = stride(from: 3, to: reference.bytes.count, by: 4).allSatisfy { reference.bytes[$0] == 255 }
    #expect(image.pixels.isOpaque == opaque)
    #expect(try CoderRegistry.shared.info(of: data).size == reference.size)
  }

  @Test func theV5ProfileIsReadAndApplied() throws {
    let data = try ReferenceFixture.data("bmp", "v5-32-icc.bmp")
    let profile = try TestPaths.fixture("bmp/v5-32-icc.icc")
    let kept = try CoderRegistry.shared.decode(data, options: Self.preserving)
    #expect(kept.colorProfile?.iccData == profile)
    // By default the Adobe RGB pixels are converted to sRGB: they change.
    let converted = try CoderRegistry.shared.decode(data)
    #expect(converted.colorProfile == nil)
    #expect(ReferenceFixture.maxDifference(converted.pixels, kept.pixels) > 8)
  }
}
