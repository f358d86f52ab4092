import Testing

@testable import Magpie

/// Reverse and bounce playback decode backward through the keyframe
/// index: each run of frames upward from its keyframe, so the draws are
/// bounded by the buffer's window, not by the frame count.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct BackwardDecodingTests {
  private static let frameCount = 120
  private static let keyframeEvery = 10
  /// 16 frames of 8x8 fit the budget; runs start from a keyframe at 8 missing.
  private static let capacity = 16

  /// A GIF of 8x8 frames, 50 ms each: a whole-canvas opaque frame (a
  /// keyframe) every `keyframeEvery`, a 2x2 patch over the last between.
  private static func gif() -> [UInt8] {
    var builder = GIFAnimationBuilder(width: 8, height: 8)
    builder.frames = (0..<frameCount).map { index in
      let isKey = index % keyframeEvery == 0
      var frame = GIFAnimationBuilder.frame(
        x: isKey ? 0 : 3, y: isKey ? 0 : 3, width: isKey ? 8 : 2, height: isKey ? 8 : 2, seed: UInt64(index))
      frame.delayCentiseconds = 5
      return frame
    }
    return [UInt8](builder.data())
  }

  /// Plays the GIF in `mode` for `loops` loops on a manual clock, the
  /// buffer settled before each tick; returns the frames shown, the
  /// player's statistics and how many frames the GIF source drew.
  private func play(_ mode: PlaybackMode, loops: Int) async throws -> ([Int], PlaybackStatistics, Int) {
    let source = try #require(try GIFFrameSource.make(data: .init(Self.gif()), options: DecodeOptions()))
    let timeline = AnimationTimeline(source)
    let canvas = source.canvasSize
    let draws = Locked(0)
    let buffer = AnimationFrameBuffer(
      frameCount: Self.frameCount, frameSize: canvas, budgetBytes: Self.capacity * canvas.pixelCount * 4
    ) { index throws(MagpieError) in
      let pixels = try source.frame(at: index)
      let drawn = source.decodedFrameCount
      draws.withLock { $0 = drawn }
      return pixels
    }
    #expect(buffer.window.capacity == Self.capacity)
    let clock = ManualFrameClock()
    let target = RecordingTarget()
    let player = AnimationPlayer(timeline: timeline, frames: buffer, clock: clock, target: target)
    player.mode = mode
    player.start()
    let ticks = loops * PlaybackState(timeline: timeline, mode: mode).loopLength
    for tick in 0...ticks {
      await buffer.waitUntilIdle()
      clock.tick(at: .milliseconds(50 * tick))
    }
    buffer.close()
    return (target.frames, player.statistics, draws.value)
  }

  @Test func reverseShowsEveryFrameOnTimeWithDrawsBoundedByTheWindow() async throws {
    let n = Self.frameCount
    let (frames, statistics, draws) = try await play(.reverse, loops: 2)
    #expect(frames == (0...2 * n).map { n - 1 - $0 % n })
    #expect(statistics.waits == 0)
    #expect(statistics.framesOnTime == 2 * n)
    // Each loop: every frame once, plus a keyframe start per half window.
    // Decoding each frame from its keyframe would be about n * K / 2 a loop.
    let batch = Self.capacity / 2
    let bound = 2 * (n + (n / batch + 1) * Self.keyframeEvery) + Self.capacity
    #expect(draws <= bound, "drew \(draws) frames, bound \(bound)")
    #expect(draws >= 2 * n)
  }

  @Test func bounceShowsEveryFrameOnTimeWithDrawsBoundedByTheWindow() async throws {
    let n = Self.frameCount
    let length = 2 * n - 2
    let (frames, statistics, draws) = try await play(.bounce, loops: 2)
    #expect(frames == (0...2 * length).map { $0 % length < n ? $0 % length : length - $0 % length })
    #expect(statistics.waits == 0)
    #expect(statistics.framesOnTime == 2 * length)
    let batch = Self.capacity / 2
    let perLoop = 2 * n + (n / batch + 3) * Self.keyframeEvery + Self.capacity
    #expect(draws <= 2 * perLoop + Self.capacity, "drew \(draws) frames, bound \(2 * perLoop + Self.capacity)")
  }

  @Test func theWindowDecodesABackwardRunUpwardOnceHalfOfItIsMissing() {
    var window = FrameWindow(frameCount: 10, frameBytes: 1000, budgetBytes: 4000)
    let reverse = PlaybackHeading(mode: .reverse)
    _ = window.request(9, heading: reverse)
    #expect(window.wanted == [9, 8, 7, 6])
    #expect(decodeAll(&window) == [6, 7, 8, 9])
    // One frame missing: not worth a start from a keyframe yet.
    #expect(window.request(8, heading: reverse) == [9])
    #expect(decodeAll(&window) == [])
    // Two (half the window): decoded upward, the second going on from the first.
    #expect(window.request(7, heading: reverse) == [8])
    #expect(decodeAll(&window) == [4, 5])
    // The frame asked for is missing: decoded at once, from its run's
    // start; the lone frame past the wrap waits for a second one.
    _ = window.request(2, heading: reverse)
    #expect(decodeAll(&window) == [0, 1, 2])
    _ = window.request(1, heading: reverse)
    #expect(decodeAll(&window) == [8, 9])
  }

  @Test func aClearedWindowDecodesNothingUntilAskedAgain() {
    var window = FrameWindow(frameCount: 10, frameBytes: 1000, budgetBytes: 3000)
    #expect(decodeAll(&window) == [0, 1, 2])
    let next = window.nextToDecode()
    #expect(next == nil)
    #expect(window.clear() == [0, 1, 2])
    #expect(window.cached.isEmpty)
    #expect(window.nextToDecode() == nil)
    _ = window.request(0)
    #expect(decodeAll(&window) == [0, 1, 2])
  }

  /// Decodes what the window wants, as the buffer's worker would.
  private func decodeAll(_ window: inout FrameWindow) -> [Int] {
    var order: [Int] = []
    while let next = window.nextToDecode() {
      order.append(next)
      _ = window.finishedDecoding(next)
    }
    return order
  }
}
