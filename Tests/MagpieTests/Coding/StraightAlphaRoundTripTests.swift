import Foundation
import Testing

@testable import Magpie

/// Lossless round trips of straight alpha are bit-exact: a decoded PNG, GIF
/// or APNG frame written again as PNG or lossless WebP decodes to the
/// values the original file stores (Fixtures/alpha, references from
/// Scripts/fixtures/make_alpha_fixtures.py).
@Suite struct StraightAlphaRoundTripTests {
  /// Decodes `Fixtures/alpha/NAME` through the registry, as an app would.
  private func decode(_ name: String) throws -> Image {
    try CoderRegistry().decode(try AlphaFixtures.data(name))
  }

  /// `pixels` written as PNG and decoded again.
  private func throughPNG(_ pixels: PixelBuffer) throws -> PixelBuffer {
    let data = try PNGCoder().encode(Image(pixels: pixels), as: .png, options: EncodeOptions())
    return try PNGCoder().decode(data, options: DecodeOptions()).pixels
  }

  /// `pixels` written as lossless WebP and decoded again.
  private func throughLosslessWebP(_ pixels: PixelBuffer) throws -> PixelBuffer {
    let data = try WebPCoder().encode(Image(pixels: pixels), as: .webp, options: EncodeOptions(lossless: true))
    #expect(ImageFormat.sniffDetails(data).isLossless)
    return try WebPCoder().decode(data, options: DecodeOptions()).pixels
  }

  @Test(arguments: ["rgba.png", "gray_alpha.png", "palette_trns.png"])
  func pngThroughPNGIsBitExact(name: String) throws {
    let back = try throughPNG(try decode(name).pixels)
    AlphaFixtures.expectPixels(back.straightRGBA(), equal: try AlphaFixtures.frames(name)[0], width: 256, name)
  }

  @Test func apngFramesThroughPNGAreBitExact() throws {
    let image = try decode("anim.png")
    let expected = try AlphaFixtures.frames("anim.png")
    let tolerances = try AlphaFixtures.tolerances("anim.png")
    try #require(image.frames.count == expected.count)
    for (index, frame) in image.frames.enumerated() {
      // The round trip adds nothing to what decoding the animation allows.
      let decoded = frame.pixels.straightRGBA()
      #expect(try throughPNG(frame.pixels).straightRGBA() == decoded, "frame \(index) changed")
      AlphaFixtures.expectPixels(
        decoded, equal: expected[index], tolerance: tolerances[index], width: 256, "anim.png frame \(index)")
    }
  }

  @Test func pngThroughLosslessWebPKeepsEveryVisiblePixelExactly() throws {
    var actual = try throughLosslessWebP(try decode("rgba.png").pixels).straightRGBA()
    var expected = try AlphaFixtures.frames("rgba.png")[0]
    try #require(actual.count == expected.count)
    // Compared where alpha > 0; colour under alpha 0 is the next test's.
    for i in stride(from: 0, to: expected.count, by: 4) where expected[i + 3] == 0 {
      expected.replaceSubrange(i..<(i + 3), with: [0, 0, 0])
      actual.replaceSubrange(i..<(i + 3), with: [0, 0, 0])
    }
    AlphaFixtures.expectPixels(actual, equal: expected, width: 256, "rgba.png through lossless WebP")
  }

  @Test func pngThroughLosslessWebPKeepsColourUnderAlphaZero() throws {
    // Needs the encoder to keep invisible colour (libwebp's `exact`), as a
    // lossless format can.
    let back = try throughLosslessWebP(try decode("rgba.png").pixels).straightRGBA()
    let expected = try AlphaFixtures.frames("rgba.png")[0]
    try #require(back.count == expected.count)
    let hidden = stride(from: 0, to: expected.count, by: 4).filter { expected[$0 + 3] == 0 }
    let lost = hidden.filter { Array(back[$0..<($0 + 4)]) != Array(expected[$0..<($0 + 4)]) }.count
    #expect(lost == 0, "\(lost) of \(hidden.count) alpha-0 pixels lost their colour")
  }

  @Test func losslessWebPThroughLosslessWebPIsBitExact() throws {
    // Column 0 holds colour under alpha 0: this too needs libwebp's `exact`.
    let back = try throughLosslessWebP(try decode("lossless.webp").pixels)
    AlphaFixtures.expectPixels(
      back.straightRGBA(), equal: try AlphaFixtures.frames("lossless.webp")[0], width: 256, "lossless.webp")
  }

  @Test(arguments: ["still.gif", "anim.gif"])
  func gifFramesThroughPNGAreBitExact(name: String) throws {
    let image = try decode(name)
    let expected = try AlphaFixtures.frames(name)
    try #require(image.frames.count == expected.count)
    for (index, frame) in image.frames.enumerated() {
      AlphaFixtures.expectPixels(
        try throughPNG(frame.pixels).straightRGBA(), equal: expected[index], width: 256, "\(name) frame \(index)")
    }
  }

  @Test func gifThroughLosslessWebPIsBitExact() throws {
    // Transparent GIF pixels are transparent black, so nothing hides colour.
    let back = try throughLosslessWebP(try decode("still.gif").pixels)
    AlphaFixtures.expectPixels(
      back.straightRGBA(), equal: try AlphaFixtures.frames("still.gif")[0], width: 256, "still.gif")
  }
}
