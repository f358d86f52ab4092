import Foundation
import Testing

@testable import Magpie

/// Animations decoded on demand convert by streaming their frames from the
/// frame source into the encoder: one pass, each frame decoded once, so an
/// animation over the all-frames decode limit still converts.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct StreamingConversionTests {
  private let gif: Data
  private let eager: Image

  init() throws {
    gif = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/pan-00.gif"))
    eager = try CoderRegistry.shared.decode(gif)
  }

  /// Decode options that refuse the eager decode (two frames' bytes for
  /// all frames) and ask for frames on demand.
  private var tightOptions: DecodeOptions {
    var options = DecodeOptions(maxTotalByteCount: 2 * 200 * 150 * 4)
    options.decodesFramesOnDemand = true
    return options
  }

  @Test(arguments: [ImageFormat.webp, .apng, .gif])
  func anAnimationOverTheEagerLimitConvertsFrameByFrame(format: ImageFormat) throws {
    #expect {
      try CoderRegistry.shared.decode(gif, options: DecodeOptions(maxTotalByteCount: 2 * 200 * 150 * 4))
    } throws: { ($0 as? MagpieError)?.code == .imageTooLarge }
    let lazy = try CoderRegistry.shared.decode(gif, options: tightOptions)
    #expect(lazy.animation != nil && lazy.frames.count == 1)
    let encoded = try CoderRegistry.shared.encode(lazy, as: format, options: EncodeOptions(lossless: true))
    let back = try CoderRegistry.shared.decode(encoded)
    #expect(back.frames.count == eager.frames.count)
    #expect(back.loopCount == eager.loopCount)
    #expect(back.frames.map(\.duration) == eager.frames.map(\.duration))
    // Each frame of this GIF has under 256 colours, so even GIF keeps them.
    #expect(back.frames.map { $0.pixels.straightRGBA() } == eager.frames.map { $0.pixels.straightRGBA() })
  }

  @Test func theEncoderReadsEachFrameOnceInOnePass() throws {
    let coder = CountingFrameCoder()
    let registry = CoderRegistry()
    registry.register(coder)
    let lazy = try registry.decode(gif, options: tightOptions)
    #expect(coder.frameDecodes == 1)
    let encoded = try CoderRegistry.shared.encode(lazy, as: .webp, options: EncodeOptions(lossless: true))
    #expect(!encoded.isEmpty)
    // The poster's source goes on from the poster: frames 0 to 7, once each.
    #expect(coder.sourcesMade == 1)
    #expect(coder.frameDecodes == 1 + eager.frames.count)
  }

  @Test func processorsRunOnEveryStreamedFrame() throws {
    let lazy = try CoderRegistry.shared.decode(gif, options: tightOptions)
    let flip = ImageProcessors.Flip(.vertical)
    let flipped = try lazy.processed(by: flip)
    #expect(flipped.animation?.processors.count == 1)
    let encoded = try CoderRegistry.shared.encode(flipped, as: .apng)
    let back = try CoderRegistry.shared.decode(encoded)
    let expected = try eager.processed(by: flip)
    #expect(back.frames.map { $0.pixels.straightRGBA() } == expected.frames.map { $0.pixels.straightRGBA() })
  }

  @Test func aGIFMixingOpaqueAndTransparentFramesShowsEachExactly() throws {
    func frame(_ seed: Int, holes: Bool) -> ImageFrame {
      var bytes: [UInt8] = []
      for index in 0..<(16 * 12) {
        let hole = holes && index % 5 == 0
        bytes += hole ? [0, 0, 0, 0] : [UInt8((index * 3 + seed * 40) % 4 * 60), UInt8(seed * 50), 90, 255]
      }
      return ImageFrame(pixels: PixelBuffer(width: 16, height: 12, straightRGBA: bytes), duration: .milliseconds(50))
    }
    let frames = [frame(0, holes: false), frame(1, holes: true), frame(2, holes: false), frame(3, holes: false)]
    let image = Image(frames: frames, loopCount: 0, format: .gif)
    let back = try CoderRegistry.shared.decode(try CoderRegistry.shared.encode(image, as: .gif))
    #expect(back.frames.map { $0.pixels.straightRGBA() } == frames.map { $0.pixels.straightRGBA() })
  }
}
