#if canImport(MagpieAVIF)
  import Foundation
  import Magpie
  import MagpieAVIF
  import Testing

  /// An AVIF image sequence (five of our photos, a keyframe every two
  /// frames) decodes to `avifdec --index I` exactly, eagerly and through
  /// its frame source in any order.
  @Suite struct AVIFSequenceTests {
    let coder = AVIFCoder()
    let name = "sequence.avifs"

    @Test func eagerDecodeMatchesTheReferenceFramesAndDurations() throws {
      let image = try coder.decode(try AVIFFixtures.data(name), options: DecodeOptions())
      let expected = try AVIFFixtures.reference(name)
      #expect(image.frames.count == 5)
      #expect(image.loopCount == 0)
      for (index, frame) in image.frames.enumerated() {
        #expect(AVIFFixtures.straight(frame.pixels) == expected[index], "frame \(index)")
      }
      // Stored 50, 200, 100, 10 and 150 ms; 10 ms plays as 100 ms.
      #expect(image.frames.map(\.durationMilliseconds) == [50, 200, 100, 100, 150])
      #expect(image.frames.map(\.durationMilliseconds) == AVIFFixtures.manifest[name]!.delays_ms)
    }

    @Test func firstFrameOnlyDecodesOneStill() throws {
      var options = DecodeOptions()
      options.firstFrameOnly = true
      let image = try coder.decode(try AVIFFixtures.data(name), options: options)
      #expect(image.frames.count == 1)
      #expect(image.frames[0].duration == .zero)
      #expect(AVIFFixtures.straight(image.pixels) == (try AVIFFixtures.reference(name)[0]))
    }

    @Test func theFrameSourceDescribesTheSequence() throws {
      let source = try #require(try coder.frameSource(for: try AVIFFixtures.data(name), options: DecodeOptions()))
      #expect(source.frameCount == 5)
      #expect(source.loopCount == 0)
      #expect(source.canvasSize == PixelSize(width: 64, height: 48))
      #expect((0..<5).map { source.duration(ofFrame: $0) } == [50, 200, 100, 100, 150].map { .milliseconds($0) })
      #expect(source.colorProfile == nil)
    }

    @Test(arguments: ["forward", "reverse", "shuffled", "repeated"])
    func frameSourceFramesEqualTheEagerDecode(order: String) throws {
      let data = try AVIFFixtures.data(name)
      let eager = try coder.decode(data, options: DecodeOptions())
      let source = try #require(try coder.frameSource(for: data, options: DecodeOptions()))
      let indices: [Int] =
        switch order {
        case "forward": Array(0..<5)
        case "reverse": Array((0..<5).reversed())
        case "shuffled": [3, 0, 4, 1, 2, 1, 4]
        default: [2, 2, 0, 0, 4, 3, 3]
        }
      for index in indices {
        #expect(try source.frame(at: index) == eager.frames[index].pixels, "frame \(index) (\(order))")
      }
    }

    @Test func aFrameOutsideTheSequenceIsAnInvalidArgument() throws {
      let source = try #require(try coder.frameSource(for: try AVIFFixtures.data(name), options: DecodeOptions()))
      for index in [-1, 5] {
        #expect(throws: MagpieError.self) { try source.frame(at: index) }
        do { _ = try source.frame(at: index) } catch { #expect(error.code == .invalidArgument) }
      }
      #expect(try source.frame(at: 4).size == source.canvasSize)
    }

    @Test func stillsHaveNoFrameSource() throws {
      #expect(try coder.frameSource(for: try AVIFFixtures.data("d8_420.avif"), options: DecodeOptions()) == nil)
    }

    @Test func onDemandDecodingPlaysThroughTheSharedRegistry() throws {
      let registry = CoderRegistry()
      registry.register(AVIFCoder())
      var options = DecodeOptions()
      options.decodesFramesOnDemand = true
      let image = try registry.decode(try AVIFFixtures.data(name), options: options)
      let animation = try #require(image.animation)
      #expect(animation.timeline.frameCount == 5)
      #expect(AVIFFixtures.straight(animation.posterFrame) == (try AVIFFixtures.reference(name)[0]))
    }
  }
#endif
