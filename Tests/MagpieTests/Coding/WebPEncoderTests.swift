import CWebP
import Foundation
import Testing

@testable import Magpie

/// WebP encode → decode round trips against the known source pixels.
@Suite struct WebPEncoderTests {
  typealias Fixtures = GIFWebPFixtureTests

  /// The lossy fixture's 64x48 photo-like source (straight RGBA, opaque).
  private func photo() throws -> PixelBuffer {
    PixelBuffer(width: 64, height: 48, straightRGBA: [UInt8](try TestPaths.fixture("webp/lossy.webp.rgba")))
  }

  /// The alpha fixture's 32x24 source with alpha from 0 to 255.
  private func translucent() throws -> [UInt8] { [UInt8](try TestPaths.fixture("webp/alpha_lossless.webp.rgba")) }

  private func features(_ data: Data) -> WebPBitstreamFeatures {
    var features = WebPBitstreamFeatures()
    _ = data.withUnsafeBytes { WebPGetFeatures($0.bindMemory(to: UInt8.self).baseAddress, data.count, &features) }
    return features
  }

  @Test func losslessRoundTripIsExact() throws {
    let pixels = try photo()
    let data = try WebPCoder().encode(Image(pixels: pixels), as: .webp, options: EncodeOptions(lossless: true))
    #expect(ImageFormat.sniffDetails(data).isLossless)
    let decoded = try WebPCoder().decode(data, options: DecodeOptions())
    #expect(decoded.pixels == pixels)
    #expect(decoded.pixels.isOpaque)
  }

  @Test func losslessAlphaRoundTripIsExactWhereVisible() throws {
    let straight = try translucent()
    let pixels = PixelBuffer(width: 32, height: 24, straightRGBA: straight)
    let data = try WebPCoder().encode(Image(pixels: pixels), as: .webp, options: EncodeOptions(lossless: true))
    let decoded = try WebPCoder().decode(data, options: DecodeOptions())
    var got = decoded.pixels.straightRGBA()
    var visible = straight
    #expect(!decoded.pixels.isOpaque)
    #expect(stride(from: 3, to: got.count, by: 4).allSatisfy { got[$0] == straight[$0] })
    // Straight colour in, straight colour out: exact wherever alpha > 0
    // (no premultiplied round trip in between). Colour under alpha 0 is
    // libwebp's to drop unless the encoder asks it to be exact.
    for i in stride(from: 0, to: got.count, by: 4) where straight[i + 3] == 0 {
      got.replaceSubrange(i..<(i + 3), with: [0, 0, 0])
      visible.replaceSubrange(i..<(i + 3), with: [0, 0, 0])
    }
    #expect(Fixtures.maxDifference(got, visible) == 0)
  }

  @Test func lossyRoundTripMeetsThePSNRBoundAndQualityMatters() throws {
    let pixels = try photo()
    let source = Fixtures.bytes(pixels)
    var sizes: [Int] = []
    for quality in [20, 80, 95] {
      let data = try WebPCoder().encode(Image(pixels: pixels), as: .webp, options: EncodeOptions(quality: quality))
      #expect(!ImageFormat.sniffDetails(data).isLossless)
      let decoded = try WebPCoder().decode(data, options: DecodeOptions())
      let psnr = Fixtures.psnr(Fixtures.bytes(decoded.pixels), source)
      // Measured 27.5, 29.6 and 30.8 dB on this noisy source.
      #expect(psnr > [20: 26.0, 80: 28.0, 95: 30.0][quality]!, "quality \(quality): \(psnr) dB")
      sizes.append(data.count)
    }
    #expect(sizes[0] < sizes[1] && sizes[1] < sizes[2])
  }

  @Test func opaqueImagesAreWrittenWithoutAlpha() throws {
    let data = try WebPCoder().encode(Image(pixels: try photo()), as: .webp, options: EncodeOptions(quality: 80))
    #expect(features(data).has_alpha == 0)
    let translucent = PixelBuffer(width: 32, height: 24, straightRGBA: try translucent())
    let withAlpha = try WebPCoder().encode(Image(pixels: translucent), as: .webp, options: EncodeOptions(quality: 80))
    #expect(features(withAlpha).has_alpha != 0)
    // Lossy colour, lossless alpha.
    let decoded = try WebPCoder().decode(withAlpha, options: DecodeOptions())
    let bytes = Fixtures.bytes(decoded.pixels)
    let straight = try self.translucent()
    #expect(stride(from: 3, to: bytes.count, by: 4).allSatisfy { bytes[$0] == straight[$0] })
  }

  /// Four distinct opaque frames cut from the photo.
  private func frames() throws -> [PixelBuffer] {
    let straight = try photo().straightRGBA()
    return (0..<4).map { i in
      var rgba: [UInt8] = []
      for y in 0..<16 {
        let start: Int = ((y + 4 * i) * 64 + 8 * i) * 4
        rgba += straight[start..<(start + 24 * 4)]
      }
      return PixelBuffer(width: 24, height: 16, straightRGBA: rgba)
    }
  }

  @Test func losslessAnimationKeepsFramesDurationsAndLoopCount() throws {
    let durations: [Duration] = [.milliseconds(100), .milliseconds(50), .milliseconds(250), .milliseconds(40)]
    let frames = zip(try frames(), durations).map { ImageFrame(pixels: $0, duration: $1) }
    let data = try WebPCoder().encode(
      Image(frames: frames, loopCount: 2), as: .webp, options: EncodeOptions(lossless: true))
    #expect(ImageFormat.sniffDetails(data).isAnimated)
    let decoded = try WebPCoder().decode(data, options: DecodeOptions())
    try #require(decoded.frames.count == 4)
    for i in 0..<4 { #expect(decoded.frames[i].pixels == frames[i].pixels, "frame \(i)") }
    #expect(decoded.frames.map(\.durationMilliseconds) == [100, 50, 250, 40])
    #expect(decoded.loopCount == 2)
    let info = try WebPCoder().info(of: data)
    #expect(info.frameCount == 4 && info.loopCount == 2)
  }

  @Test func lossyAnimationWithAlphaStaysCloseToItsFrames() throws {
    let straight = try translucent()
    let frames = (0..<3).map { i in
      var rgba = straight
      for p in stride(from: 0, to: rgba.count, by: 4) { rgba[p] = UInt8((Int(rgba[p]) + 60 * i) % 256) }
      return ImageFrame(pixels: PixelBuffer(width: 32, height: 24, straightRGBA: rgba), duration: .milliseconds(80))
    }
    let data = try WebPCoder().encode(
      Image(frames: frames, loopCount: 0), as: .webp, options: EncodeOptions(quality: 90))
    let decoded = try WebPCoder().decode(data, options: DecodeOptions())
    try #require(decoded.frames.count == 3)
    for i in 0..<3 {
      // The same frame as a still is the yardstick (36.2, 33.0, 25.2 dB: the
      // wrapped red channel of the last has hard edges).
      let still = try WebPCoder().encode(Image(frames: [frames[i]]), as: .webp, options: EncodeOptions(quality: 90))
      // Compared premultiplied, as shown: lossy coding spends nothing on the
      // colour of nearly transparent pixels.
      let shown = { (pixels: PixelBuffer) in Fixtures.bytes(pixels.premultiplied()) }
      let stillPSNR = Fixtures.psnr(
        shown(try WebPCoder().decode(still, options: DecodeOptions()).pixels), shown(frames[i].pixels))
      let psnr = Fixtures.psnr(shown(decoded.frames[i].pixels), shown(frames[i].pixels))
      #expect(psnr > 23 && psnr > stillPSNR - 1.5, "frame \(i): \(psnr) dB, as a still \(stillPSNR) dB")
    }
    #expect(decoded.loopCount == 0)
    #expect(decoded.frames.allSatisfy { $0.durationMilliseconds == 80 })
  }

  @Test func firstFrameOnlyWritesAStill() throws {
    let frames = try frames().map { ImageFrame(pixels: $0, duration: .milliseconds(100)) }
    let data = try WebPCoder().encode(
      Image(frames: frames, loopCount: 0), as: .webp, options: EncodeOptions(lossless: true, firstFrameOnly: true))
    #expect(!ImageFormat.sniffDetails(data).isAnimated)
    #expect(try WebPCoder().decode(data, options: DecodeOptions()).pixels == frames[0].pixels)
  }

  @Test func refusesOtherFormatsAndImpossibleSizes() throws {
    #expect(WebPCoder().canEncode(to: .webp))
    #expect(!WebPCoder().canEncode(to: .gif))
    let image = Image(pixels: try photo())
    #expect(throws: MagpieError.self) { try WebPCoder().encode(image, as: .jpeg, options: EncodeOptions()) }
    do {
      _ = try WebPCoder().encode(
        Image(pixels: PixelBuffer(width: 16384, height: 1)), as: .webp, options: EncodeOptions())
      Issue.record("a 16384-pixel-wide webp was written")
    } catch {
      #expect(error.code == .invalidArgument)
    }
  }
}
