import Foundation
import Testing

@testable import Magpie

/// PNG iCCP, cHRM with gAMA, the sRGB chunk, WebP ICCP and an APNG's
/// profile reach the conversion; each matches the ImageCms reference.
@Suite struct EmbeddedProfileTests {
  typealias Support = ColorTestSupport

  @Test(arguments: [("p3.png", "p3_png"), ("chrm.png", "chrm"), ("p3.webp", "p3_webp"), ("p3.gif", "p3_gif")])
  func taggedFilesMatchTheReference(file: String, reference: String) throws {
    let data = try Support.fixture(file)
    let image = try CoderRegistry.shared.decode(data)
    #expect(image.colorProfile == nil)
    let difference = Support.maxDifference(Support.rgb(image.pixels), try Support.reference(reference))
    #expect(difference <= Support.tolerance, "\(file): \(difference)")
    let kept = try CoderRegistry.shared.decode(data, options: Support.preserving)
    #expect(kept.colorProfile != nil)
    #expect(Support.maxDifference(Support.rgb(kept.pixels), Support.rgb(image.pixels)) > 8)
  }

  @Test func pngICCPAndWebPICCPCarryTheEmbeddedBytes() throws {
    let p3 = try Support.profile("p3")
    #expect(
      try CoderRegistry.shared.decode(try Support.fixture("p3.gif"), options: Support.preserving).colorProfile == p3)
    #expect(
      try CoderRegistry.shared.decode(try Support.fixture("p3.png"), options: Support.preserving).colorProfile == p3)
    #expect(
      try CoderRegistry.shared.decode(try Support.fixture("p3.webp"), options: Support.preserving).colorProfile == p3)
  }

  /// The sRGB chunk means sRGB: no profile, the stored values.
  @Test func sRGBChunkDecodesAsStored() throws {
    let image = try CoderRegistry.shared.decode(try Support.fixture("srgb.png"), options: Support.preserving)
    #expect(image.colorProfile == nil)
    #expect(Support.rgb(image.pixels) == (try Support.reference("srgb_png")))
  }

  /// An iCCP that inflates past the bound, or does not inflate, is no
  /// profile: the stored values, no allocation beyond the bound.
  @Test(arguments: ["iccp_bomb.png", "iccp_corrupt.png"])
  func hostileICCPDecodesUntagged(file: String) throws {
    let data = try Support.fixture(file)
    let image = try CoderRegistry.shared.decode(data, options: Support.preserving)
    #expect(image.colorProfile == nil)
    #expect(Support.rgb(image.pixels) == (try Support.reference("srgb_png")))
  }

  /// A lone gAMA (the PNG suite's seed files carry one) leaves the image untagged.
  @Test func loneGammaIsUntagged() throws {
    let image = try CoderRegistry.shared.decode(try TestPaths.fixture("png/seed_rgb8.png"), options: Support.preserving)
    #expect(image.colorProfile == nil)
  }

  /// An APNG with p3.png's iCCP chunk: its frame source reports the
  /// profile and on-demand frames come out converted.
  @Test func apngFrameSourceReportsAndConvertsItsProfile() throws {
    let apng = try Self.inserting(iccpOf: try Support.fixture("p3.png"), into: TestPaths.fixture("png/apng_ops.png"))
    let source = try #require(try CoderRegistry.shared.frameSource(for: apng))
    #expect(source.colorProfile == (try Support.profile("p3")))
    var onDemand = DecodeOptions()
    onDemand.decodesFramesOnDemand = true
    let converted = try #require(try CoderRegistry.shared.decode(apng, options: onDemand).animation)
    onDemand.colorManagement = .preserve
    let keptImage = try CoderRegistry.shared.decode(apng, options: onDemand)
    let kept = try #require(keptImage.animation)
    #expect(keptImage.colorProfile == (try Support.profile("p3")))
    let expected = SRGBConversion.converted(kept.posterFrame, profile: source.colorProfile, options: DecodeOptions())
    #expect(converted.posterFrame == expected)
    #expect(converted.posterFrame != kept.posterFrame)
  }

  /// `png` with the iCCP chunk of `tagged` put right after its IHDR.
  static func inserting(iccpOf tagged: Data, into png: Data) -> Data {
    let source = [UInt8](tagged)
    var offset = 8
    var chunk: ArraySlice<UInt8> = []
    while offset + 8 <= source.count {
      let length = source[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
      if String(decoding: source[(offset + 4)..<(offset + 8)], as: UTF8.self) == "iCCP" {
        chunk = source[offset..<(offset + 12 + length)]
        break
      }
      offset += 12 + length
    }
    var bytes = [UInt8](png)
    // Signature (8) + IHDR (12 + 13).
    bytes.insert(contentsOf: chunk, at: 33)
    return Data(bytes)
  }
}
