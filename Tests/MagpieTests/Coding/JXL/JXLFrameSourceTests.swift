#if canImport(MagpieJXL)
  import Foundation
  import Magpie
  import MagpieJXL
  import Testing

  /// anim.jxl (three photos, cjxl from an APNG): the eager decode equals
  /// djxl's full canvases, and the frame source gives the same frames in
  /// any order (forward, rewinding with JxlDecoderRewind, skipping with
  /// JxlDecoderSkipFrames).
  @Suite struct JXLFrameSourceTests {
    private let name = "anim.jxl"

    @Test func eagerFramesEqualDjxl() throws {
      let entry = try ReferenceFixture.entry("jxl", name)
      let image = try JXLCoder().decode(ReferenceFixture.data("jxl", name), options: DecodeOptions())
      #expect(image.frames.count == entry.frames)
      #expect(image.loopCount == entry.loop_count)
      #expect(image.frames.map(\.durationMilliseconds) == entry.delays_ms)
      for (index, frame) in image.frames.enumerated() {
        #expect(frame.pixels == (try ReferenceFixture.frame("jxl", name, index)), "frame \(index)")
      }
    }

    @Test func firstFrameOnlyDecodesOne() throws {
      let options = DecodeOptions(firstFrameOnly: true)
      let image = try JXLCoder().decode(ReferenceFixture.data("jxl", name), options: options)
      #expect(image.frames.count == 1)
      #expect(image.pixels == (try ReferenceFixture.frame("jxl", name, 0)))
    }

    @Test(arguments: [[0, 1, 2], [2, 1, 0], [1, 2, 0, 0, 2, 1], [2, 2, 0, 1, 1]])
    func sourceFramesEqualEagerInAnyOrder(order: [Int]) throws {
      let data = try ReferenceFixture.data("jxl", name)
      let eager = try JXLCoder().decode(data, options: DecodeOptions())
      let source = try #require(try JXLCoder().frameSource(for: data, options: DecodeOptions()))
      #expect(source.frameCount == 3)
      #expect(source.canvasSize == eager.pixelSize)
      #expect(source.loopCount == eager.loopCount)
      #expect((0..<3).map { source.duration(ofFrame: $0) } == eager.frames.map(\.duration))
      for index in order {
        #expect(try source.frame(at: index) == eager.frames[index].pixels, "frame \(index) in \(order)")
      }
      #expect(throws: MagpieError.self) { try source.frame(at: 3) }
      #expect(try source.frame(at: 1) == eager.frames[1].pixels)
    }

    @Test func stillsHaveNoFrameSource() throws {
      #expect(
        try JXLCoder().frameSource(for: ReferenceFixture.data("jxl", "lossy.jxl"), options: DecodeOptions()) == nil)
    }

    @Test func byteLimitCoversEveryFrameBeforeDecoding() throws {
      // 3 frames of 32x24 RGBA8 are 9216 bytes.
      let options = DecodeOptions(maxTotalByteCount: 9000)
      #expect {
        try JXLCoder().decode(ReferenceFixture.data("jxl", name), options: options)
      } throws: { ($0 as? MagpieError)?.code == .imageTooLarge }
    }
  }
#endif
