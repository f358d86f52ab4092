import Foundation
import Testing

@testable import Magpie

/// Processors apply to every frame of an animation and keep its timing.
@Suite struct AnimationProcessingTests {
  private func manifest() throws -> [String: Any] {
    try #require(ProcessingTestSupport.manifest()["anim.gif"])
  }

  @Test func everyFrameIsProcessedAndTimingIsKept() throws {
    let expected = try manifest()
    let delays = try #require(expected["delays_ms"] as? [Int])
    let colours = try #require(expected["colours"] as? [[Int]])
    let data = try TestPaths.fixture("processing/anim.gif")
    let chain =
      ImageProcessors.Downsampling(size: PixelSize(width: 16, height: 16)) |> ImageProcessors.RoundCorner(radius: 3)
      |> ImageProcessors.Blur(radius: 1) |> ImageProcessors.Rotation(.degrees90)
    for item in [ImageProcessItem.data(data), .image(try CoderRegistry.shared.decode(data))] {
      let image = try chain.process(item: item, options: ImageProcessingOptions())
      #expect(image.frames.count == delays.count)
      #expect(image.frames.map(\.durationMilliseconds) == delays)
      #expect(image.loopCount == expected["loop_count"] as? Int)
      #expect(image.pixelSize == PixelSize(width: 12, height: 16))
      for (frame, colour) in zip(image.frames, colours) {
        let centre = frame.pixels[6, 8]
        #expect(centre == SIMD4(UInt8(colour[0]), UInt8(colour[1]), UInt8(colour[2]), 255))
        #expect(frame.pixels[0, 0][3] < 200)
      }
    }
  }

  @Test func firstFrameOnlyMakesAStill() throws {
    let data = try TestPaths.fixture("processing/anim.gif")
    let options = ImageProcessingOptions(firstFrameOnly: true)
    for item in [ImageProcessItem.data(data), .image(try CoderRegistry.shared.decode(data))] {
      let image = try ImageProcessors.Flip(.horizontal).process(item: item, options: options)
      #expect(image.frames.count == 1)
      #expect(!image.isAnimated)
      #expect(image.frames[0].duration == .zero)
      #expect(image.loopCount == 0)
    }
  }

  @Test func aFailingFrameFailsTheProcessor() throws {
    let data = try TestPaths.fixture("processing/anim.gif")
    let image = try CoderRegistry.shared.decode(data)
    let firstColour = image.frames[0].pixels[0, 0]
    let picky = ImageProcessors.Custom(identifier: "only-the-first") { pixels in
      pixels[0, 0] == firstColour ? pixels : nil
    }
    #expect(throws: MagpieError.self) { try picky.process(item: .image(image), options: ImageProcessingOptions()) }
    #expect(throws: Never.self) {
      try picky.process(item: .image(image), options: ImageProcessingOptions(firstFrameOnly: true))
    }
  }

  @Test func manyLargeFramesAreProcessedInParallelWithTheSameResult() throws {
    // Big enough frames that they run side by side.
    let frames = (0..<6).map { i in
      ImageFrame(
        pixels: ProcessingTestSupport.make(300, 200) { x, y in
          SIMD4(UInt8((x + i * 40) % 256), UInt8(y % 256), UInt8(i * 30), 255)
        },
        duration: .milliseconds(50 + i))
    }
    let animation = Image(frames: frames, loopCount: 7)
    let blur = ImageProcessors.Blur(radius: 2)
    let result = try blur.process(item: .image(animation), options: ImageProcessingOptions())
    #expect(result.loopCount == 7)
    for (index, frame) in result.frames.enumerated() {
      let alone = try blur.process(item: .image(Image(pixels: frames[index].pixels)), options: ImageProcessingOptions())
      #expect(frame.pixels == alone.pixels)
      #expect(frame.duration == .milliseconds(50 + index))
    }
  }
}
