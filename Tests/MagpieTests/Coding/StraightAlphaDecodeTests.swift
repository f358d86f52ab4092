import Foundation
import Testing

@testable import Magpie

/// Decoders deliver straight alpha exactly as the file stores it: every
/// alpha value 0-255 under varied colours (colour under alpha 0 included)
/// in PNG RGBA, gray + alpha and palette + tRNS, GIF, lossless WebP and
/// lossy WebP with its lossless alpha plane, and the canvases of APNG, GIF
/// and WebP animations. References: Scripts/fixtures/make_alpha_fixtures.py.
@Suite struct StraightAlphaDecodeTests {
  /// Decodes `Fixtures/alpha/NAME` through the registry, as an app would.
  private func decode(_ name: String, _ options: DecodeOptions = DecodeOptions()) throws -> Image {
    try CoderRegistry().decode(try AlphaFixtures.data(name), options: options)
  }

  @Test func everyEntryHasItsFilesAndEveryStillEveryAlphaValue() throws {
    let manifest = try AlphaFixtures.manifest()
    #expect(Set(manifest.keys) == Set(AlphaFixtures.stills + AlphaFixtures.animations))
    for name in AlphaFixtures.stills {
      let entry = try AlphaFixtures.entry(name)
      let reference = try AlphaFixtures.frames(name)[0]
      let isGIF = name.hasSuffix(".gif")
      #expect(entry.width == 256 && entry.frames == 1, "\(name)")
      for row in 0..<entry.height {
        let alphas = Set((0..<256).map { reference[(row * 256 + $0) * 4 + 3] })
        // GIF stores only transparent and opaque pixels.
        #expect(alphas.count == (isGIF ? 2 : 256), "\(name) row \(row) lacks alpha values")
      }
      // Colour under alpha 0 is part of what a straight decode keeps; GIF
      // has none: a transparent index shows the transparent canvas.
      let hidden = stride(from: 0, to: reference.count, by: 4).filter { reference[$0 + 3] == 0 }
      let hasHiddenColour = hidden.contains { reference[$0] | reference[$0 + 1] | reference[$0 + 2] != 0 }
      #expect(hasHiddenColour == !isGIF, "\(name)")
    }
    for name in AlphaFixtures.animations {
      #expect(try AlphaFixtures.tolerances(name).count == (try AlphaFixtures.entry(name)).frames)
    }
  }

  @Test(arguments: AlphaFixtures.stills)
  func stillDecodesToTheFilesStraightValuesExactly(name: String) throws {
    let entry = try AlphaFixtures.entry(name)
    let image = try decode(name)
    #expect(image.pixelSize == PixelSize(width: entry.width, height: entry.height))
    try #require(image.frames.count == 1)
    #expect(!image.pixels.isOpaque)
    #expect(image.pixels.alphaRepresentation == .straight)
    // The bytes themselves are the file's, not only what straightRGBA() says.
    #expect(image.pixels.packedBytes() == (try AlphaFixtures.frames(name)[0]))
    AlphaFixtures.expectPixels(
      image.pixels.straightRGBA(), equal: try AlphaFixtures.frames(name)[0], width: entry.width, name)
  }

  @Test func lowAlphaAndAlphaZeroKeepTheirColour() throws {
    // rgba.png row 0, x = 0...2 (alpha = x): colour (97x + 13, 151x + 101,
    // 43x + 222) mod 256. Premultiplied, alpha 1 leaves colour 0 or 1 per
    // channel and alpha 0 none at all.
    let straight = try decode("rgba.png").pixels.straightRGBA()
    #expect(Array(straight[0..<12]) == [13, 101, 222, 0, 110, 252, 9, 1, 207, 147, 52, 2])
  }

  @Test(arguments: AlphaFixtures.animations)
  func animationCanvasesMatchTheStraightReference(name: String) throws {
    let entry = try AlphaFixtures.entry(name)
    let image = try decode(name)
    let expected = try AlphaFixtures.frames(name)
    let tolerances = try AlphaFixtures.tolerances(name)
    #expect(image.pixelSize == PixelSize(width: entry.width, height: entry.height))
    #expect(image.frames.map(\.durationMilliseconds) == entry.delays_ms)
    #expect(image.loopCount == entry.loop_count)
    try #require(image.frames.count == entry.frames)
    for (index, frame) in image.frames.enumerated() {
      #expect(frame.pixels.alphaRepresentation == .straight, "\(name) frame \(index)")
      // Exact, but within 1 where a frame blends alpha 1-254 OVER alpha
      // 1-254: browsers round that division differently.
      AlphaFixtures.expectPixels(
        frame.pixels.straightRGBA(), equal: expected[index], tolerance: tolerances[index], width: entry.width,
        "\(name) frame \(index)")
    }
  }

  @Test(arguments: AlphaFixtures.animations)
  func firstFrameOnlyIsTheFirstCanvasExactly(name: String) throws {
    let image = try decode(name, DecodeOptions(firstFrameOnly: true))
    try #require(image.frames.count == 1)
    AlphaFixtures.expectPixels(
      image.pixels.straightRGBA(), equal: try AlphaFixtures.frames(name)[0], width: 256, "\(name) first frame")
  }

  @Test func overBlendsAreExactOnOpaqueAndEmptyDestinations() throws {
    // anim.png frame 1 blends every alpha value over an opaque band (rows
    // 2-3) and an empty one (rows 6-7): no tolerance there at all.
    let tolerances = try AlphaFixtures.tolerances("anim.png")[1]
    #expect(tolerances[(2 * 256)..<(4 * 256)].allSatisfy { $0 == 0 })
    #expect(tolerances[(6 * 256)..<(8 * 256)].allSatisfy { $0 == 0 })
    let frame = try decode("anim.png").frames[1].pixels.straightRGBA()
    let expected = try AlphaFixtures.frames("anim.png")[1]
    for rows in [2..<4, 6..<8] {
      let range = (rows.lowerBound * 1024)..<(rows.upperBound * 1024)
      AlphaFixtures.expectPixels(Array(frame[range]), equal: Array(expected[range]), width: 256, "rows \(rows)")
    }
  }

  @Test func disposePreviousRestoresStraightColours() throws {
    // anim.png frame 2 shows rows 4-7 as frame 0 left them (frame 1 was
    // disposed to the previous canvas): alpha 1-254 and empty, exactly.
    let frames = try decode("anim.png").frames
    try #require(frames.count == 3)
    let shown = frames[2].pixels.straightRGBA()
    let first = try AlphaFixtures.frames("anim.png")[0]
    AlphaFixtures.expectPixels(
      Array(shown[(4 * 1024)...]), equal: Array(first[(4 * 1024)...]), width: 256, "restored rows 4-7")
  }

  @Test func scaledLosslessWebPMatchesLibwebpsOwnShrinking() throws {
    // dwebp -scale 128 2: libwebp shrinks straight RGBA weighting colour by
    // alpha, and returns straight colour.
    let entry = try AlphaFixtures.entry("lossless.webp")
    let scaled = try #require(entry.scaled)
    let size = PixelSize(width: scaled.width, height: scaled.height)
    let image = try decode("lossless.webp", DecodeOptions(targetSize: size))
    #expect(image.pixelSize == size)
    AlphaFixtures.expectPixels(
      image.pixels.straightRGBA(), equal: [UInt8](try AlphaFixtures.data("lossless.webp.scaled.rgba")),
      width: scaled.width, "lossless.webp at 128x2")
  }

  @Test(arguments: AlphaFixtures.stills + AlphaFixtures.animations)
  func infoMatchesTheManifest(name: String) throws {
    let entry = try AlphaFixtures.entry(name)
    let info = try CoderRegistry().info(of: try AlphaFixtures.data(name))
    #expect(info.size == PixelSize(width: entry.width, height: entry.height))
    #expect(info.frameCount == entry.frames)
    #expect(info.loopCount == entry.loop_count)
  }
}
