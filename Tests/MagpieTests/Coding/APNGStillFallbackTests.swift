import Foundation
import Testing

@testable import Magpie

/// APNGs whose animation chunks contradict each other show, as in browsers,
/// as a still of their default image; `info(of:)` agrees. The expected
/// pixels are the default image's source pixels, written by
/// Scripts/fixtures/make_png_fixtures.py (listed under "stills" in
/// apng_reference.json).
@Suite struct APNGStillFallbackTests {
  /// Every still fixture and the file holding its expected straight RGBA.
  static let stills: [(String, String)] = {
    guard
      let data = try? TestPaths.fixture("png/apng_reference.json"),
      let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let stills = json["stills"] as? [String: String]
    else { return [] }
    return stills.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }()

  @Test func everyCaseTheBriefNamesHasAFixture() {
    let names = Set(Self.stills.map(\.0))
    for name in [
      "apng_second_actl.png", "apng_second_actl_after_idat.png", "apng_missing_frame.png", "apng_extra_frame.png",
      "apng_zero_frames.png", "apng_huge_frames.png", "apng_too_many_frames.png",
    ] {
      #expect(names.contains(name), "\(name)")
    }
  }

  @Test(arguments: stills)
  func decodesAsTheDefaultImage(name: String, expectedFile: String) throws {
    let data = try TestPaths.fixture("png/" + name)
    let expected = [UInt8](try TestPaths.fixture("png/" + expectedFile))
    var size: PixelSize?
    for options in [DecodeOptions(), DecodeOptions(firstFrameOnly: true)] {
      let image = try PNGCoder().decode(data, options: options)
      size = image.pixelSize
      #expect(image.frames.count == 1, "\(name)")
      #expect(image.loopCount == 0, "\(name)")
      #expect(image.format == .apng, "\(name)")
      #expect(image.frames.first?.duration == .zero, "\(name)")
      #expect(image.frames.first?.pixels.straightRGBA() == expected, "\(name)")
    }
    let info = try PNGCoder().info(of: data)
    #expect(info.frameCount == 1, "\(name)")
    #expect(info.loopCount == 0, "\(name)")
    #expect(info.frameDurations == [.zero], "\(name)")
    #expect(info.size == size, "\(name)")
  }

  @Test func theRegistryAgrees() throws {
    let data = try TestPaths.fixture("png/apng_zero_frames.png")
    #expect(try CoderRegistry.shared.info(of: data).frameCount == 1)
    #expect(try CoderRegistry.shared.decode(data).frames.count == 1)
  }

  @Test func aHiddenDefaultImageIsWhatShows() throws {
    // The default image is not part of the animation; only the fallback
    // shows it (opaque magenta).
    let data = try TestPaths.fixture("png/apng_hidden_default_zero_frames.png")
    let image = try PNGCoder().decode(data, options: DecodeOptions())
    let magenta: [UInt8] = [255, 0, 255, 255]
    #expect(image.frames.count == 1)
    #expect(image.frames[0].pixels.straightRGBA().prefix(4) == magenta[...])
  }

  @Test func damageInTheDefaultImageStillFails() throws {
    // A still fallback still decodes IDAT: cut inside it, it is truncated.
    let data = try TestPaths.fixture("png/apng_zero_frames.png")
    let bytes = [UInt8](data)
    let idat = try #require(
      (0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("IDAT".utf8) })
    #expect {
      try PNGCoder().decode(Data(bytes.prefix(idat + 20)), options: DecodeOptions())
    } throws: { ($0 as? MagpieError)?.code == .truncatedData }
  }
}
