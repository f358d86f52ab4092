import Foundation
import Testing

@testable import Magpie

/// An animation played from its bytes: header facts without a whole
/// decode, one buffer shared by its players, frames equal to the eager
/// decode's, memory within the budget.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct AnimatedImageTests {
  private let gif: Data
  private let eager: Image

  init() throws {
    gif = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/pan-00.gif"))
    eager = try CoderRegistry.shared.decode(gif)
  }

  /// A target that keeps the pixels it was shown.
  final class PixelTarget: AnimationTarget {
    private let shown = Lock<[(Int, PixelBuffer)]>([])
    var frames: [(Int, PixelBuffer)] { shown.withLock { $0 } }
    func show(_ frame: PixelBuffer, index: Int) { shown.withLock { $0.append((index, frame)) } }
  }

  @Test func headerFactsAndThePosterMatchTheEagerDecode() throws {
    let animation = try AnimatedImage(data: gif, monitor: nil)
    #expect(animation.timeline == AnimationTimeline(eager))
    #expect(animation.canvasSize == eager.pixelSize)
    #expect(animation.posterFrame == eager.frames[0].pixels)
  }

  @Test func aStillImageIsNotAnAnimation() throws {
    let png = try CoderRegistry.shared.encode(Image(pixels: eager.pixels), as: .png)
    #expect {
      try AnimatedImage(data: png)
    } throws: { ($0 as? MagpieError)?.code == .unsupportedFormat }
  }

  @Test func playersShareOneBufferWhileAnyLives() async throws {
    let animation = try AnimatedImage(data: gif, monitor: nil)
    let first = try animation.makePlayer(clock: ManualFrameClock(), target: PixelTarget())
    let second = try animation.makePlayer(clock: ManualFrameClock(), target: PixelTarget())
    let buffer = try animation.frameBuffer()
    #expect(try animation.frameBuffer() === buffer)
    // Both players read the one buffer: a frame either decodes is there for the other.
    await buffer.waitUntilIdle()
    first.start()
    second.start()
    #expect(buffer.decodeCount == animation.timeline.frameCount)
  }

  @Test func aLongPlaybackWithinASmallBudgetShowsTheEagerFramesAndHoldsNoMore() async throws {
    let frameBytes = eager.pixelSize.width * eager.pixelSize.height * 4
    let animation = try AnimatedImage(data: gif, budgetBytes: 3 * frameBytes, monitor: nil)
    let buffer = try animation.frameBuffer()
    let clock = ManualFrameClock()
    let target = PixelTarget()
    let player = AnimationPlayer(timeline: animation.timeline, frames: buffer, clock: clock, target: target)
    await buffer.waitUntilIdle()
    player.start()
    clock.tick(at: .zero)
    let step = eager.frames[0].duration
    for tick in 1...40 {
      // Let the buffer catch up before each tick: playback never waits.
      await buffer.waitUntilIdle()
      clock.tick(at: step * tick)
      #expect(buffer.heldBytes <= 3 * frameBytes)
    }
    #expect(buffer.peakBytes <= 3 * frameBytes)
    #expect(player.statistics.waits == 0)
    let shown = target.frames
    #expect(shown.count == 41)
    #expect(shown.allSatisfy { index, pixels in pixels == eager.frames[index].pixels })
    #expect(player.completedLoops == 5)
  }
}
