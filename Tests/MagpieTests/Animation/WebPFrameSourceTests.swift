import Foundation
import Testing

@testable import Magpie

/// Animated WebP frame sources against the eager decoder: blend and
/// no-blend, dispose to background, keyframes and frames that need the
/// ones before; how far out-of-order requests go back; damaged data.
@Suite struct WebPFrameSourceTests {
  typealias Expect = FrameSourceExpectations
  typealias Builder = WebPAnimationBuilder

  /// 10 frames on a 12x10 canvas; keyframes (libwebp's rule) at 0, 4
  /// (covers the canvas without blending), 5 (after 4's whole-canvas
  /// background), 6 (after 5, drawn on a transparent canvas, is disposed
  /// to background) and 8 (covers the canvas and has no alpha).
  static func layout() -> WebPAnimationBuilder {
    var webp = Builder(width: 12, height: 10)
    webp.frames = [
      Builder.frame(
        x: 0, y: 0, width: 12, height: 10, blends: false, disposesToBackground: false, holes: true, seed: 1),
      Builder.frame(x: 2, y: 2, width: 6, height: 4, blends: true, disposesToBackground: true, holes: true, seed: 2),
      Builder.frame(x: 4, y: 4, width: 6, height: 6, blends: true, disposesToBackground: false, holes: true, seed: 3),
      Builder.frame(x: 0, y: 0, width: 12, height: 10, blends: true, disposesToBackground: false, holes: true, seed: 4),
      Builder.frame(x: 0, y: 0, width: 12, height: 10, blends: false, disposesToBackground: true, holes: true, seed: 5),
      Builder.frame(x: 2, y: 0, width: 8, height: 6, blends: true, disposesToBackground: true, holes: true, seed: 6),
      Builder.frame(x: 0, y: 2, width: 6, height: 6, blends: false, disposesToBackground: false, holes: true, seed: 7),
      Builder.frame(x: 6, y: 6, width: 6, height: 4, blends: true, disposesToBackground: false, holes: true, seed: 8),
      Builder.frame(
        x: 0, y: 0, width: 12, height: 10, blends: true, disposesToBackground: false, holes: false, seed: 9),
      Builder.frame(x: 2, y: 2, width: 4, height: 4, blends: true, disposesToBackground: false, holes: true, seed: 10),
    ]
    return webp
  }

  @Test func blendDisposeAndKeyframesMatchTheEagerDecoder() throws {
    let image = try Expect.expectMatchesEager(Self.layout().data(), coder: WebPCoder(), "layout")
    #expect(image.frames.count == 10)
    #expect(image.loopCount == 3)
  }

  @Test func keyframesFollowLibwebpsRule() throws {
    let source = try #require(try WebPCoder().frameSource(for: Self.layout().data(), options: DecodeOptions()))
    for (index, expected) in [0: 1, 4: 1, 5: 1, 6: 1, 8: 1, 3: 4, 7: 2, 9: 2] {
      let fresh = try #require(try WebPCoder().frameSource(for: Self.layout().data(), options: DecodeOptions()))
      _ = try fresh.frame(at: index)
      #expect(Expect.decodedCount(fresh) == expected, "frame \(index)")
    }
    _ = try source.frame(at: 2)
    _ = try source.frame(at: 3)
    #expect(Expect.decodedCount(source) == 4)
  }

  @Test(arguments: ["webp/anmf.webp", "webp/pillow_anim.webp"])
  func fixturesMatchTheEagerDecoder(name: String) throws {
    try Expect.expectMatchesEager(TestPaths.fixture(name), coder: WebPCoder(), name)
  }

  @Test(arguments: ["samples/pan-00.webp", "samples/pan-01.webp"])
  func sampleAnimationsMatchTheEagerDecoder(path: String) throws {
    let data = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent(path))
    try Expect.expectMatchesEager(data, coder: WebPCoder(), path)
  }

  @Test func libwebpsOwnEncoderChoicesMatchTheEagerDecoder() throws {
    let frames = Self.layout().frames.map { frame in
      var canvas = [UInt8](repeating: 0, count: 12 * 10 * 4)
      for y in 0..<frame.height {
        for x in 0..<(frame.width * 4) {
          canvas[((frame.y + y) * 12 + frame.x) * 4 + x] = frame.rgba[y * frame.width * 4 + x]
        }
      }
      return ImageFrame(pixels: PixelBuffer(width: 12, height: 10, straightRGBA: canvas), duration: .milliseconds(70))
    }
    for lossless in [true, false] {
      let data = try WebPCoder().encode(
        Image(frames: frames, loopCount: 0, format: .webp), as: .webp, options: EncodeOptions(lossless: lossless))
      try Expect.expectMatchesEager(data, coder: WebPCoder(), lossless ? "lossless" : "lossy")
    }
  }

  @Test func aDamagedFrameThrowsAndTheNextKeyframeStillDecodes() throws {
    var bytes = [UInt8](try Self.layout().data())
    // Frame 7's lossless bitstream is the eighth VP8L chunk: keep its
    // header, zero the rest.
    let type = Array("VP8L".utf8)
    let starts = (0..<(bytes.count - 4)).filter { Array(bytes[$0..<($0 + 4)]) == type }
    let start = starts[7]
    let size = (0..<4).reduce(0) { $0 | Int(bytes[start + 4 + $1]) << (8 * $1) }
    for i in (start + 8 + 5)..<(start + 8 + size) { bytes[i] = 0 }
    let eager = try WebPCoder().decode(Self.layout().data(), options: DecodeOptions())
    let source = try #require(try WebPCoder().frameSource(for: Data(bytes), options: DecodeOptions()))
    #expect(try source.frame(at: 6) == eager.frames[6].pixels)
    do {
      _ = try source.frame(at: 7)
      Issue.record("a damaged frame decoded")
    } catch {
      #expect(error.code == .corruptData || error.code == .truncatedData)
      #expect(error.reason.contains("frame 8"))
    }
    #expect(try source.frame(at: 8) == eager.frames[8].pixels)
  }

  @Test func truncatedDataThrowsTruncatedData() throws {
    let data = try Self.layout().data()
    do {
      _ = try WebPCoder().frameSource(for: data.prefix(data.count / 2), options: DecodeOptions())
      Issue.record("a truncated WebP made a source")
    } catch {
      #expect(error.code == .truncatedData)
    }
  }

  @Test func stillsAndLimits() throws {
    let still = try TestPaths.fixture("webp/lossless.webp")
    #expect(try WebPCoder().frameSource(for: still, options: DecodeOptions()) == nil)
    #expect(try CoderRegistry().frameSource(for: still) == nil)
    #expect(try CoderRegistry().frameSource(for: Self.layout().data()) is WebPFrameSource)
    #expect(throws: MagpieError.self) {
      try WebPCoder().frameSource(for: Self.layout().data(), options: DecodeOptions(maxPixelCount: 119))
    }
  }
}
