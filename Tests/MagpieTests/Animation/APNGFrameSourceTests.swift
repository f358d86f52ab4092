import Foundation
import Testing

@testable import Magpie

/// APNG frame sources against the eager decoder: every dispose op and blend
/// op, sub-rectangles, a default image outside the animation, keyframes;
/// how far out-of-order requests go back; damaged data.
@Suite struct APNGFrameSourceTests {
  typealias Expect = FrameSourceExpectations
  typealias Frame = APNGAnimationBuilder.Frame

  /// 12 frames on a 10x8 canvas, the default image first; keyframes at 0,
  /// 6 (covers the canvas, source), 8 (the same, disposed to background),
  /// 9 (after 8's whole-canvas background) and 10 (after 9 is disposed to
  /// previous, which was a transparent canvas).
  static func everyOp() -> APNGAnimationBuilder {
    var apng = APNGAnimationBuilder(width: 10, height: 8)
    apng.frames = [
      Frame(x: 0, y: 0, width: 10, height: 8, dispose: 0, blend: 0, seed: 1),
      Frame(x: 2, y: 1, width: 5, height: 4, dispose: 1, blend: 1, seed: 2),
      Frame(x: 1, y: 1, width: 6, height: 5, dispose: 2, blend: 1, seed: 3),
      Frame(x: 0, y: 0, width: 10, height: 8, dispose: 0, blend: 1, isOpaque: true, seed: 4),
      Frame(x: 0, y: 0, width: 10, height: 8, dispose: 2, blend: 0, seed: 5),
      Frame(x: 3, y: 2, width: 4, height: 4, dispose: 1, blend: 1, seed: 6),
      Frame(x: 0, y: 0, width: 10, height: 8, dispose: 0, blend: 0, seed: 7),
      Frame(x: 4, y: 4, width: 5, height: 3, dispose: 2, blend: 1, seed: 8),
      Frame(x: 0, y: 0, width: 10, height: 8, dispose: 1, blend: 0, seed: 9),
      Frame(x: 2, y: 2, width: 3, height: 3, dispose: 2, blend: 1, seed: 10),
      Frame(x: 1, y: 0, width: 5, height: 5, dispose: 0, blend: 0, delayNumerator: 0, seed: 11),
      Frame(x: 0, y: 0, width: 4, height: 4, dispose: 1, blend: 1, delayNumerator: 1, delayDenominator: 0, seed: 12),
    ]
    return apng
  }

  @Test func everyDisposeAndBlendOpMatchesTheEagerDecoder() throws {
    let image = try Expect.expectMatchesEager(Self.everyOp().data(), coder: PNGCoder(), "every op")
    #expect(image.frames.count == 12)
    #expect(image.loopCount == 2)
  }

  @Test func aHiddenDefaultImageAndPreviousOnTheFirstFrameMatchTheEagerDecoder() throws {
    var apng = APNGAnimationBuilder(width: 9, height: 7)
    apng.hidesDefaultImage = true
    apng.plays = 0
    apng.frames = [
      Frame(x: 0, y: 0, width: 9, height: 7, dispose: 2, blend: 1, seed: 21),
      Frame(x: 2, y: 2, width: 4, height: 3, dispose: 2, blend: 1, seed: 22),
      Frame(x: 1, y: 0, width: 6, height: 6, dispose: 0, blend: 1, seed: 23),
      Frame(x: 0, y: 3, width: 9, height: 4, dispose: 1, blend: 0, seed: 24),
    ]
    try Expect.expectMatchesEager(apng.data(), coder: PNGCoder(), "hidden default")
    let source = try #require(try PNGCoder().frameSource(for: apng.data(), options: DecodeOptions()))
    // Frame 0's "previous" is "background" over the whole canvas: 1 needs nothing before it.
    _ = try source.frame(at: 1)
    #expect(Expect.decodedCount(source) == 1)
  }

  @Test(arguments: ["apng_ops.png", "apng_hidden_default.png", "apng_palette.png"])
  func fixturesMatchTheEagerDecoder(name: String) throws {
    try Expect.expectMatchesEager(TestPaths.fixture("png/" + name), coder: PNGCoder(), name)
  }

  @Test func theFastPathOffGivesTheSameFrames() throws {
    var coder = PNGCoder()
    coder.usesFastPath = false
    try Expect.expectMatchesEager(Self.everyOp().data(), coder: coder, "libpng only")
  }

  @Test func outOfOrderRequestsStartAtTheNearestKeyframeOrGoOn() throws {
    let data = Self.everyOp().data()
    let eager = try PNGCoder().decode(data, options: DecodeOptions())
    let source = try #require(try PNGCoder().frameSource(for: data, options: DecodeOptions()))
    func ask(_ index: Int, decodes expected: Int) throws {
      let before = Expect.decodedCount(source)
      #expect(try source.frame(at: index) == eager.frames[index].pixels)
      #expect(Expect.decodedCount(source) - before == expected, "frame \(index)")
    }
    try ask(9, decodes: 1)  // a keyframe
    try ask(10, decodes: 1)  // the next frame
    try ask(11, decodes: 1)
    try ask(7, decodes: 2)  // from keyframe 6
    try ask(5, decodes: 6)  // from the first frame
    try ask(8, decodes: 1)  // keyframe 8 is nearer than going on from 6
  }

  @Test func aDamagedFrameThrowsCorruptDataAndFramesAfterTheNextKeyframeDecode() throws {
    var bytes = [UInt8](Self.everyOp().data())
    // Frame 5's data is the fifth fdAT chunk; damage a byte of it.
    let type = Array("fdAT".utf8)
    let starts = (0..<(bytes.count - 4)).filter { Array(bytes[$0..<($0 + 4)]) == type }
    bytes[starts[4] + 4 + 6] ^= 0x55
    let data = Data(bytes)
    let eager = try PNGCoder().decode(Self.everyOp().data(), options: DecodeOptions())
    let source = try #require(try PNGCoder().frameSource(for: data, options: DecodeOptions()))
    #expect(try source.frame(at: 4) == eager.frames[4].pixels)
    do {
      _ = try source.frame(at: 5)
      Issue.record("a damaged frame decoded")
    } catch {
      #expect(error.code == .corruptData)
      #expect(error.reason.contains("APNG frame 5"))
    }
    #expect(try source.frame(at: 6) == eager.frames[6].pixels)
  }

  @Test func truncatedDataThrowsTruncatedData() throws {
    let data = Self.everyOp().data()
    do {
      _ = try PNGCoder().frameSource(for: data.prefix(data.count * 2 / 3), options: DecodeOptions())
      Issue.record("a truncated APNG made a source")
    } catch {
      #expect(error.code == .truncatedData)
    }
  }

  @Test func stillsAndLimits() throws {
    let still = PNGStreamBuilder(width: 4, height: 4, colorType: 6, seed: 3).png()
    #expect(try PNGCoder().frameSource(for: still, options: DecodeOptions()) == nil)
    #expect(try CoderRegistry().frameSource(for: still) == nil)
    #expect(try CoderRegistry().frameSource(for: Self.everyOp().data()) is APNGFrameSource)
    #expect(throws: MagpieError.self) {
      try PNGCoder().frameSource(for: Self.everyOp().data(), options: DecodeOptions(maxPixelCount: 79))
    }
  }
}
