import Foundation
import Testing

@testable import Magpie

/// Which profiles build a transform, that each builds one only once, what
/// an unusable profile gives, and premultiplied pixels.
@Suite struct ColorTransformCacheTests {
  typealias Support = ColorTestSupport

  /// The profile an sRGB-tagged JPEG embeds (lcms2's, through Pillow),
  /// and Debian's sRGB.icc: both are sRGB, so no transform is built.
  @Test func sRGBProfilesBuildNoTransform() throws {
    let cache = ColorTransformCache(capacity: 4)
    let embedded = try #require(
      try JPEGCoder().decode(try Support.fixture("srgb.jpg"), options: Support.preserving).colorProfile)
    var profiles = [embedded]
    if let debian = FileManager.default.contents(atPath: "/usr/share/color/icc/sRGB.icc") {
      profiles.append(ColorProfile(iccData: debian))
    }
    for profile in profiles {
      guard case .identity = cache.outcome(for: profile, input: .rgba) else {
        Issue.record("an sRGB profile of \(profile.iccData.count) bytes is not identity")
        continue
      }
    }
    #expect(cache.transformsBuilt == 0)
  }

  @Test func untaggedImagesTouchNoCache() throws {
    let cache = ColorTransformCache(capacity: 4)
    var image = try JPEGCoder().decode(try TestPaths.fixture("jpeg/photo96.jpg"), options: DecodeOptions())
    let before = image
    SRGBConversion.apply(to: &image, options: DecodeOptions(), cache: cache)
    #expect(image.pixels == before.pixels)
    #expect(cache.transformsBuilt == 0)
  }

  @Test func aProfileBuildsOneTransform() throws {
    let cache = ColorTransformCache(capacity: 4)
    let p3 = try Support.profile("p3")
    for _ in 0..<3 {
      guard case .transform = cache.outcome(for: p3, input: .rgba) else {
        Issue.record("P3 builds no transform")
        return
      }
    }
    guard case .transform = cache.outcome(for: try Support.profile("cmyk"), input: .invertedCMYK) else {
      Issue.record("the CMYK profile builds no transform")
      return
    }
    #expect(cache.transformsBuilt == 2)
  }

  @Test func theCacheIsBounded() throws {
    let cache = ColorTransformCache(capacity: 1)
    let p3 = try Support.profile("p3")
    let adobe = try #require(
      try JPEGCoder().decode(try Support.fixture("adobe.jpg"), options: Support.preserving).colorProfile)
    _ = cache.outcome(for: p3, input: .rgba)
    _ = cache.outcome(for: adobe, input: .rgba)
    _ = cache.outcome(for: p3, input: .rgba)
    #expect(cache.transformsBuilt == 3)
  }

  /// Garbage, a cut-off profile and a profile for other pixels (CMYK on
  /// RGB) are unusable: decoding keeps the stored values.
  @Test func unusableProfilesAreReportedNotFatal() throws {
    let cache = ColorTransformCache(capacity: 4)
    let p3 = try Support.fixture("p3.icc")
    let cases = [
      Data(repeating: 0xAB, count: 600), p3.prefix(200), Data(), try Support.fixture("cmyk.icc"),
      Data(p3.prefix(128)) + Data(repeating: 0xFF, count: 400),
    ]
    for bytes in cases {
      guard case .unusable = cache.outcome(for: ColorProfile(iccData: bytes), input: .rgba) else {
        Issue.record("a bad profile of \(bytes.count) bytes was used")
        continue
      }
    }
    #expect(cache.transformsBuilt == 0)
  }

  /// Profiles with a few bytes changed (deterministically, many in the
  /// header and tag table) are read, used or refused, and never crash.
  @Test func mutatedProfilesNeverCrash() throws {
    let sources = [try Support.fixture("p3.icc"), try Support.fixture("cmyk.icc")]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33)
    }
    var used = 0
    for round in 0..<Sanitizer.iterations(120) {
      var bytes = [UInt8](sources[round % 2])
      for _ in 0..<(1 + next() % 4) {
        let span = next() % 2 == 0 ? min(bytes.count, 400) : bytes.count
        bytes[next() % span] = UInt8(truncatingIfNeeded: next())
      }
      let input: ColorTransform.Input = round % 2 == 0 ? .rgba : .invertedCMYK
      guard case .transform(let transform) = ColorTransformBuilder.outcome(for: Data(bytes), input: input) else {
        continue
      }
      used += 1
      var pixels = [UInt8](repeating: 128, count: 16 * 4 * 4)
      pixels.withUnsafeMutableBytes {
        transform.apply(to: $0.baseAddress!, width: 16, height: 4, stride: 64, premultiplied: round % 4 == 0)
      }
    }
    // Most single-byte changes land in data that still reads.
    #expect(used > 0)
  }

  /// Premultiplied pixels convert as their straight colours would, alpha kept.
  @Test func premultipliedPixelsConvertThroughStraightColour() throws {
    let image = try JPEGCoder().decode(try Support.fixture("p3.jpg"), options: Support.preserving)
    var rgba = image.pixels.straightRGBA()
    for i in stride(from: 3, to: rgba.count, by: 4) { rgba[i] = UInt8((i / 4) % 256) }
    let straight = PixelBuffer(width: Support.size.width, height: Support.size.height, straightRGBA: rgba)
    let premultiplied = straight.premultiplied()
    let p3 = try Support.profile("p3")
    let fromStraight = SRGBConversion.converted(straight, profile: p3, options: DecodeOptions())
    let fromPremultiplied = SRGBConversion.converted(premultiplied, profile: p3, options: DecodeOptions())
    #expect(fromPremultiplied.alphaRepresentation == .premultiplied)
    // Compared premultiplied: low alpha quantizes the colour it keeps, and
    // both orders round within a few levels of it.
    let expected = fromStraight.premultiplied().bytes
    let got = fromPremultiplied.bytes
    var worst = 0
    for i in expected.indices { worst = max(worst, abs(Int(expected[i]) - Int(got[i]))) }
    #expect(worst <= 3)
    #expect(
      zip(premultiplied.bytes, got).enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element.0 == $0.element.1 })
  }
}
