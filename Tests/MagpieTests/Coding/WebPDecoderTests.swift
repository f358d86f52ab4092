import Foundation
import Testing

@testable import Magpie

/// WebP decoding against the fixture script's straight-alpha references: the
/// known sources (lossless), PSNR and Pillow's decode (lossy), spec
/// compositing (the hand-built animation) and Pillow-turned images (EXIF
/// orientation).
@Suite struct WebPDecoderTests {
  typealias Fixtures = GIFWebPFixtureTests

  private func fixture(_ name: String) throws -> (Data, GIFWebPFixtureTests.Entry) {
    (try TestPaths.fixture("webp/\(name)"), try #require(try Fixtures.manifest("webp")[name]))
  }

  private func source(_ name: String) throws -> [UInt8] { [UInt8](try TestPaths.fixture("webp/\(name).rgba")) }

  @Test func lossyIsCloseToTheSourceAndToPillowsDecode() throws {
    let (data, entry) = try fixture("lossy.webp")
    let image = try WebPCoder().decode(data, options: DecodeOptions())
    #expect(image.pixelSize == PixelSize(width: entry.width, height: entry.height))
    #expect(image.pixels.isOpaque)
    let got = Fixtures.bytes(image.pixels)
    let psnr = Fixtures.psnr(got, try source("lossy.webp"))
    // Measured 29.6 dB: the source carries sigma-6 noise that quality 80 smooths.
    #expect(psnr > 28, "PSNR \(psnr)")
    // Pillow bundles libwebp 1.6; lossy decoding is specified bit-exactly
    // (dwebp 1.2.4 gives the same bytes).
    let pillow = [UInt8](try TestPaths.fixture("webp/lossy.webp.pillow.rgba"))
    #expect(Fixtures.maxDifference(got, pillow) == 0)
  }

  @Test func losslessIsExact() throws {
    let (data, _) = try fixture("lossless.webp")
    let image = try WebPCoder().decode(data, options: DecodeOptions())
    #expect(image.pixels.isOpaque)
    #expect(Fixtures.bytes(image.pixels) == (try source("lossless.webp")))
  }

  @Test func losslessAlphaIsExact() throws {
    let (data, _) = try fixture("alpha_lossless.webp")
    let image = try WebPCoder().decode(data, options: DecodeOptions())
    #expect(!image.pixels.isOpaque)
    // Straight colour exactly as stored, under alpha 0 (row 0) too.
    let difference = Fixtures.maxDifference(image.pixels.straightRGBA(), try source("alpha_lossless.webp"))
    #expect(difference == 0)
  }

  @Test func lossyColourKeepsItsLosslessAlpha() throws {
    let (data, _) = try fixture("alpha_lossy.webp")
    let image = try WebPCoder().decode(data, options: DecodeOptions())
    let straight = try source("alpha_lossy.webp")
    let got = image.pixels.straightRGBA()
    #expect(stride(from: 3, to: got.count, by: 4).allSatisfy { got[$0] == straight[$0] })
    // Measured 29.9 dB on straight colour (35.9 premultiplied, where low
    // alpha hides the error).
    #expect(Fixtures.psnr(got, straight) > 29)
    // Straight RGBA as libwebp's MODE_RGBA gives it (Pillow's decode).
    let pillow = [UInt8](try TestPaths.fixture("webp/alpha_lossy.webp.pillow.rgba"))
    #expect(Fixtures.maxDifference(got, pillow) == 0)
  }

  @Test func handBuiltAnimationHonoursOffsetsBlendAndDispose() throws {
    let (data, entry) = try fixture("anmf.webp")
    let image = try WebPCoder().decode(data, options: DecodeOptions())
    let expected = try Fixtures.expectedFrames("webp", "anmf.webp", entry)
    try #require(image.frames.count == entry.frames)
    for (i, frame) in image.frames.enumerated() {
      // Exact until frame 3 blends alpha 128 over opaque and cleared pixels;
      // within 1 from there on (libwebp's WebPAnimDecoder truncates).
      let difference = Fixtures.maxDifference(frame.pixels.straightRGBA(), expected[i])
      #expect(difference <= (i < 3 ? 0 : 1), "frame \(i) differs by \(difference)")
    }
    #expect(image.frames.map(\.durationMilliseconds) == entry.delays_ms)
    #expect(image.loopCount == 3)
    // Frame 2's rectangle is cleared before frame 3 blends holes over it;
    // frame 5 replaces a rectangle without blending, holes included.
    #expect(image.frames[0].pixels.isOpaque && image.frames[1].pixels.isOpaque)
    #expect(!image.frames[2].pixels.isOpaque && !image.frames[4].pixels.isOpaque)
  }

  @Test func pillowAnimationDecodesToItsSourceFrames() throws {
    let (data, entry) = try fixture("pillow_anim.webp")
    let image = try WebPCoder().decode(data, options: DecodeOptions())
    let expected = try Fixtures.expectedFrames("webp", "pillow_anim.webp", entry)
    try #require(image.frames.count == 4)
    for i in 0..<4 { #expect(image.frames[i].pixels.straightRGBA() == expected[i], "frame \(i)") }
    #expect(image.frames.map(\.durationMilliseconds) == [80, 100, 40, 200])
    #expect(image.loopCount == 0)
    #expect(image.frames.allSatisfy { $0.pixels.isOpaque })
  }

  @Test func firstFrameOnlyGivesAStill() throws {
    let (data, entry) = try fixture("anmf.webp")
    let image = try WebPCoder().decode(data, options: DecodeOptions(firstFrameOnly: true))
    #expect(image.frames.count == 1)
    #expect(image.frames[0].duration == .zero)
    #expect(image.loopCount == 0)
    #expect(image.pixels.straightRGBA() == (try Fixtures.expectedFrames("webp", "anmf.webp", entry))[0])
  }

  @Test(arguments: 2...8)
  func exifOrientationIsAppliedAsBrowsersDo(orientation: Int) throws {
    let name = "orientation\(orientation).webp"
    let (data, entry) = try fixture(name)
    let image = try WebPCoder().decode(data, options: DecodeOptions())
    #expect(image.orientation.rawValue == orientation)
    #expect(image.pixelSize == PixelSize(width: entry.width, height: entry.height))
    #expect(Fixtures.bytes(image.pixels) == (try source(name)))
    let info = try WebPCoder().info(of: data)
    #expect(info.size == PixelSize(width: entry.width, height: entry.height))
    #expect(info.orientation.rawValue == orientation)
    // Asked not to turn it, the decoder returns the stored pixels.
    let stored = try WebPCoder().decode(data, options: DecodeOptions(appliesOrientation: false))
    #expect(stored.pixelSize == PixelSize(width: 6, height: 4))
    #expect(Fixtures.bytes(stored.pixels) == (try source("orientation.source")))
    #expect(stored.orientation.rawValue == orientation)
  }

  @Test(arguments: [
    (PixelSize(width: 20, height: 20), DecodeOptions.ContentMode.aspectFit, PixelSize(width: 20, height: 15)),
    (PixelSize(width: 20, height: 20), .aspectFill, PixelSize(width: 27, height: 20)),
    (PixelSize(width: 32, height: 100), .aspectFit, PixelSize(width: 32, height: 24)),
    (PixelSize(width: 500, height: 500), .aspectFit, PixelSize(width: 64, height: 48)),
  ])
  func scaledDecodeCoversTheTargetAtTheSmallestSize(target: PixelSize, mode: DecodeOptions.ContentMode, size: PixelSize)
    throws
  {
    let (data, _) = try fixture("lossy.webp")
    let options = DecodeOptions(targetSize: target, contentMode: mode)
    let image = try WebPCoder().decode(data, options: options)
    let needed = try #require(options.requiredStoredSize(for: PixelSize(width: 64, height: 48), orientation: .up))
    #expect(image.pixelSize == size)
    #expect(image.pixelSize.width >= needed.width && image.pixelSize.height >= needed.height)
    // The shrunk image still looks like the source: compare mean colours.
    let full = Fixtures.bytes(try WebPCoder().decode(data, options: DecodeOptions()).pixels)
    let small = Fixtures.bytes(image.pixels)
    for c in 0..<3 {
      let a = stride(from: c, to: full.count, by: 4).reduce(0) { $0 + Int(full[$1]) } / (full.count / 4)
      let b = stride(from: c, to: small.count, by: 4).reduce(0) { $0 + Int(small[$1]) } / (small.count / 4)
      #expect(abs(a - b) <= 4, "channel \(c): \(a) vs \(b)")
    }
  }

  @Test func scaledDecodeOfATurnedImageCoversTheUprightTarget() throws {
    // orientation6: stored 6x4, shown 4x6; a 2x3 target needs stored 3x2.
    let (data, _) = try fixture("orientation6.webp")
    let image = try WebPCoder().decode(data, options: DecodeOptions(targetSize: PixelSize(width: 2, height: 3)))
    #expect(image.pixelSize == PixelSize(width: 2, height: 3))
  }

  @Test func thePixelLimitIsCheckedAfterShrinking() throws {
    let (data, _) = try fixture("lossy.webp")
    let tight = DecodeOptions(targetSize: PixelSize(width: 16, height: 12), maxPixelCount: 200)
    #expect(try WebPCoder().decode(data, options: tight).pixelSize == PixelSize(width: 16, height: 12))
    do {
      _ = try WebPCoder().decode(data, options: DecodeOptions(maxPixelCount: 200))
      Issue.record("a 64x48 image passed a 200-pixel limit")
    } catch {
      #expect(error.code == .imageTooLarge)
    }
  }

  @Test(arguments: [
    "lossy.webp", "lossless.webp", "alpha_lossless.webp", "alpha_lossy.webp", "anmf.webp", "pillow_anim.webp",
    "orientation6.webp",
  ])
  func infoMatchesTheManifest(name: String) throws {
    let (data, entry) = try fixture(name)
    let info = try WebPCoder().info(of: data)
    #expect(info.format == .webp)
    #expect(info.size == PixelSize(width: entry.width, height: entry.height))
    #expect(info.frameCount == entry.frames)
    #expect(info.loopCount == entry.loop_count)
    #expect(info.frameDurations == entry.delays_ms.map { .milliseconds($0) })
    #expect(info.byteCount == data.count)
  }

  @Test func optionsAndTheRegistry() throws {
    let (data, _) = try fixture("lossless.webp")
    #expect(CoderRegistry().decoder(for: data) is WebPCoder)
    let image = try CoderRegistry().decode(data, options: DecodeOptions(keepsOriginalData: true, scale: 3))
    #expect(image.format == .webp)
    #expect(image.scale == 3)
    #expect(image.originalData == data)
  }
}
