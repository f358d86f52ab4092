import Foundation
import Testing

@testable import Magpie

/// GIF frame sources against the eager decoder: every disposal method,
/// transparency, frames smaller than (and past the edge of) the canvas,
/// interlacing; how far out-of-order requests go back; damaged data.
@Suite struct GIFFrameSourceTests {
  typealias Expect = FrameSourceExpectations
  typealias Builder = GIFAnimationBuilder

  /// 14 frames on a 12x10 canvas: disposals 0-3 (and 4, read as 3), with
  /// and without a transparent index, sub-rectangles, one past the right
  /// and bottom edges, interlaced frames, and keyframes of each kind at 6
  /// (covers the canvas, opaque), 9 (after a whole-canvas disposal 2) and
  /// 10 (after disposal 3 of frame 9, which was drawn on a transparent
  /// canvas).
  static func everyDisposal() -> GIFAnimationBuilder {
    var gif = Builder(width: 12, height: 10)
    gif.frames = [
      Builder.frame(x: 0, y: 0, width: 12, height: 10, disposal: 1, seed: 1),
      Builder.frame(x: 2, y: 2, width: 5, height: 4, disposal: 2, transparentIndex: 0, seed: 2),
      Builder.frame(x: 1, y: 1, width: 4, height: 3, disposal: 3, transparentIndex: 1, seed: 3),
      Builder.frame(x: 6, y: 5, width: 6, height: 5, disposal: 0, seed: 4),
      Builder.frame(x: 0, y: 0, width: 12, height: 10, disposal: 3, transparentIndex: 2, seed: 5),
      Builder.frame(x: 1, y: 2, width: 7, height: 7, disposal: 2, isInterlaced: true, seed: 6),
      Builder.frame(x: 0, y: 0, width: 12, height: 10, disposal: 0, seed: 7),
      Builder.frame(x: 8, y: 6, width: 6, height: 6, disposal: 4, transparentIndex: 3, seed: 8),
      Builder.frame(x: 0, y: 0, width: 12, height: 10, disposal: 2, transparentIndex: 0, seed: 9),
      Builder.frame(x: 3, y: 3, width: 4, height: 4, disposal: 3, seed: 10),
      Builder.frame(x: 2, y: 0, width: 5, height: 9, disposal: 1, transparentIndex: 0, isInterlaced: true, seed: 11),
      Builder.frame(x: 0, y: 0, width: 3, height: 3, disposal: 3, seed: 12),
      Builder.frame(x: 5, y: 1, width: 4, height: 4, disposal: 2, transparentIndex: 1, seed: 13),
      Builder.frame(x: 1, y: 1, width: 9, height: 8, disposal: 0, transparentIndex: 0, seed: 14),
    ]
    return gif
  }

  @Test func everyDisposalMatchesTheEagerDecoder() throws {
    let image = try Expect.expectMatchesEager(Self.everyDisposal().data(), coder: GIFCoder(), "every disposal")
    #expect(image.frames.count == 14)
  }

  @Test(arguments: ["disposal.gif", "interlaced.gif", "pillow_anim.gif", "delays.gif", "loop3.gif", "overflow.gif"])
  func fixturesMatchTheEagerDecoder(name: String) throws {
    try Expect.expectMatchesEager(TestPaths.fixture("gif/" + name), coder: GIFCoder(), name)
  }

  @Test func aSampleAnimationMatchesTheEagerDecoder() throws {
    let data = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/pan-00.gif"))
    try Expect.expectMatchesEager(data, coder: GIFCoder(), "pan-00.gif")
  }

  @Test func keyframesFollowTheDisposalRule() throws {
    let source = try #require(try GIFFrameSource.make(data: Self.everyDisposal().data(), options: DecodeOptions()))
    let keys = KeyframeIndex(
      Self.everyDisposal().frames.map { frame in
        let covers = frame.x == 0 && frame.y == 0 && frame.width >= 12 && frame.height >= 10
        let disposal: KeyframeIndex.Disposal = [0: .keep, 1: .keep, 2: .clear, 3: .restore, 4: .restore][
          frame.disposal]!
        return KeyframeIndex.Frame(
          coversCanvas: covers, replacesRectangle: frame.transparentIndex == nil, disposal: disposal)
      })
    #expect(keys.isKeyframe.enumerated().filter(\.element).map(\.offset) == [0, 6, 9, 10])
    #expect(source.frameCount == 14)
  }

  @Test func outOfOrderRequestsStartAtTheNearestKeyframeOrGoOn() throws {
    let source = try #require(try GIFFrameSource.make(data: Self.everyDisposal().data(), options: DecodeOptions()))
    let eager = try GIFCoder().decode(Self.everyDisposal().data(), options: DecodeOptions())
    func ask(_ index: Int, decodes expected: Int) throws {
      let before = source.decodedFrameCount
      #expect(try source.frame(at: index) == eager.frames[index].pixels)
      #expect(source.decodedFrameCount - before == expected, "frame \(index)")
    }
    try ask(12, decodes: 3)  // from keyframe 10, not from frame 0
    try ask(13, decodes: 1)  // the next frame only
    try ask(13, decodes: 0)  // the same frame again
    try ask(9, decodes: 1)  // a keyframe itself
    try ask(11, decodes: 2)  // keyframe 10 and frame 11
    try ask(8, decodes: 3)  // back to keyframe 6
    try ask(3, decodes: 4)  // back to the first frame
    try ask(5, decodes: 2)  // forward from 4
    try ask(0, decodes: 1)
  }

  @Test func aFrameCutShortIsKeptAsDrawnAsTheEagerDecodeKeepsIt() throws {
    let whole = Self.everyDisposal().data()
    let layout = try GIFLayout(walking: whole)
    let cut = whole.prefix(layout.recordOffsets[8] + 40)
    let eager = try GIFCoder().decode(cut, options: DecodeOptions())
    #expect(eager.isPartial && eager.frames.count == 9)
    let source = try #require(try GIFCoder().frameSource(for: cut, options: DecodeOptions()))
    #expect(try source.frame(at: 8) == eager.frames[8].pixels)
    #expect(try source.frame(at: 3) == eager.frames[3].pixels)
    #expect(try source.frame(at: 8) == eager.frames[8].pixels)
  }

  @Test func aFrameCutShortThrowsTruncatedDataWithoutPartialImagesAndEarlierFramesStillDecode() throws {
    let whole = Self.everyDisposal().data()
    let eager = try GIFCoder().decode(whole, options: DecodeOptions())
    // Cut inside frame 8's data: the walk counts it, the frames after it go.
    let layout = try GIFLayout(walking: whole)
    let cut = whole.prefix(layout.recordOffsets[8] + 40)
    let source = try #require(
      try GIFCoder().frameSource(for: cut, options: DecodeOptions(allowsPartialImage: false)))
    #expect(source.frameCount == 9)
    #expect(try source.frame(at: 7) == eager.frames[7].pixels)
    #expect(throws: MagpieError.self) { try source.frame(at: 8) }
    do {
      _ = try source.frame(at: 8)
    } catch {
      #expect(error.code == .truncatedData)
    }
    // The source is still usable after the error.
    #expect(try source.frame(at: 2) == eager.frames[2].pixels)
  }

  @Test func damagedLZWDataThrowsCorruptData() throws {
    var gif = Self.everyDisposal()
    gif.frames[3].indices.removeLast(7)
    let source = try #require(
      try GIFCoder().frameSource(for: gif.data(), options: DecodeOptions(allowsPartialImage: false)))
    let eager = try GIFCoder().decode(gif.data(), options: DecodeOptions())
    #expect(try source.frame(at: 2) == eager.frames[2].pixels)
    // Allowed partial, the damaged frame is the eager decode's last one;
    // a frame drawn over it is still an error.
    let partial = try #require(try GIFCoder().frameSource(for: gif.data(), options: DecodeOptions()))
    #expect(eager.frames.count == 4)
    #expect(try partial.frame(at: 3) == eager.frames[3].pixels)
    #expect(throws: MagpieError.self) { try partial.frame(at: 4) }
    for index in [3, 4, 5] {
      do {
        _ = try source.frame(at: index)
        Issue.record("frame \(index) over damaged data decoded")
      } catch {
        #expect(error.code == .corruptData, "frame \(index)")
      }
    }
    // Keyframe 6 needs nothing before it.
    #expect(source.frameCount == 14)
    #expect(try source.frame(at: 6).size == PixelSize(width: 12, height: 10))
  }

  @Test func limitsAndStillsAndBadIndices() throws {
    let data = Self.everyDisposal().data()
    #expect(throws: MagpieError.self) {
      try GIFCoder().frameSource(for: data, options: DecodeOptions(maxPixelCount: 100))
    }
    var still = Builder(width: 4, height: 4)
    still.frames = [Builder.frame(x: 0, y: 0, width: 4, height: 4, seed: 1)]
    #expect(try GIFCoder().frameSource(for: still.data(), options: DecodeOptions()) == nil)
    #expect(try CoderRegistry().frameSource(for: still.data()) == nil)
    let source = try #require(try CoderRegistry().frameSource(for: data))
    #expect(source is GIFFrameSource)
    do {
      _ = try source.frame(at: 14)
      Issue.record("frame 14 of 14 decoded")
    } catch {
      #expect(error.code == .invalidArgument)
    }
    #expect(throws: MagpieError.self) { try CoderRegistry().frameSource(for: Data([1, 2, 3])) }
  }
}
