import Testing

@testable import Magpie

/// A player's modes and controls on a manual frame clock: the exact frames
/// a target sees, loops reported, steps, stop and rate changes.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct AnimationPlayerModeTests {
  private func ms(_ value: Int) -> Duration { .milliseconds(value) }

  /// `count` frames of 100 ms, 2x2 each.
  private func image(_ count: Int, loopCount: Int = 0) -> Image {
    var image = Image(pixels: PixelBuffer(width: 2, height: 2))
    image.frames = (0..<count).map { _ in ImageFrame(pixels: PixelBuffer(width: 2, height: 2), duration: ms(100)) }
    image.loopCount = loopCount
    return image
  }

  /// A player of `image` in `mode` with its loops and end recorded.
  private func player(
    _ image: Image, mode: PlaybackMode, clock: ManualFrameClock, target: RecordingTarget, events: Locked<[String]>
  ) -> AnimationPlayer {
    let player = AnimationPlayer(image: image, clock: clock, target: target)
    player.mode = mode
    player.onLoopCompleted = { done, remaining in events.withLock { $0.append("\(done)/\(remaining ?? -1)") } }
    player.onFinished = { events.withLock { $0.append("finished") } }
    return player
  }

  @Test func reversePlaysTwoLoopsBackwardAndStopsOnTheFirstFrame() {
    let (clock, target, events) = (ManualFrameClock(), RecordingTarget(), Locked<[String]>([]))
    let player = player(image(3, loopCount: 2), mode: .reverse, clock: clock, target: target, events: events)
    player.start()
    for time in stride(from: 0, through: 800, by: 100) { clock.tick(at: ms(time)) }
    #expect(target.frames == [2, 1, 0, 2, 1, 0])
    #expect(events.value == ["1/1", "2/0", "finished"])
    #expect(player.currentFrame == 0)
    #expect(!clock.isRunning)
  }

  @Test func bounceGoesOutAndBackEachLoop() {
    let (clock, target, events) = (ManualFrameClock(), RecordingTarget(), Locked<[String]>([]))
    let player = player(image(4), mode: .bounce, clock: clock, target: target, events: events)
    player.start()
    for time in stride(from: 0, through: 1300, by: 100) { clock.tick(at: ms(time)) }
    #expect(target.frames == [0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1])
    #expect(events.value == ["1/-1", "2/-1"])
    #expect(player.statistics.framesOnTime == 13)
    #expect(player.statistics.dueFrames == 13)
  }

  @Test func aFiniteBounceEndsWhereItStarted() {
    let (clock, target, events) = (ManualFrameClock(), RecordingTarget(), Locked<[String]>([]))
    let player = player(image(3, loopCount: 1), mode: .bounce, clock: clock, target: target, events: events)
    player.start()
    for time in stride(from: 0, through: 600, by: 100) { clock.tick(at: ms(time)) }
    #expect(target.frames == [0, 1, 2, 1, 0])
    #expect(events.value == ["1/0", "finished"])
    #expect(player.completedLoops == 1)
  }

  @Test func theLoopCountOverrideWinsOverTheFiles() {
    let (clock, target, events) = (ManualFrameClock(), RecordingTarget(), Locked<[String]>([]))
    let player = player(image(2), mode: .forward, clock: clock, target: target, events: events)
    player.loopCountOverride = 2
    #expect(player.loopCount == 2)
    player.start()
    for time in stride(from: 0, through: 600, by: 100) { clock.tick(at: ms(time)) }
    #expect(target.frames == [0, 1, 0, 1])
    #expect(events.value == ["1/1", "2/0", "finished"])
    player.loopCountOverride = nil
    #expect(player.loopCount == 0)
  }

  @Test func stepsPauseAndShowTheNextOrPreviousFrameInTheModesOrder() {
    let clock = ManualFrameClock()
    let target = RecordingTarget()
    let player = AnimationPlayer(image: image(4), clock: clock, target: target)
    player.start()
    clock.tick(at: .zero)
    clock.tick(at: ms(100))
    player.stepForward()
    #expect(!player.isPlaying)
    #expect(!clock.isRunning)
    player.stepBackward()
    player.stepBackward()
    player.stepBackward()
    player.mode = .reverse
    player.stepForward()
    player.step(by: -3)
    #expect(target.frames == [0, 1, 2, 1, 0, 3, 2, 1])
    // Stepping counts no loop and plays nothing on its own.
    clock.tick(at: ms(5000))
    #expect(player.completedLoops == 0)
    #expect(target.frames.count == 8)
    player.start()
    clock.tick(at: ms(5000))
    clock.tick(at: ms(5100))
    #expect(target.frames.suffix(2) == [1, 0])
  }

  @Test func aStepToAFrameNotDecodedYetShowsItOnceItIs() {
    let clock = ManualFrameClock()
    let target = RecordingTarget()
    let frames = HeldFrames()
    let player = AnimationPlayer(
      timeline: AnimationTimeline(durations: Array(repeating: ms(100), count: 3), loopCount: 0), frames: frames,
      clock: clock, target: target)
    player.stepForward()
    #expect(target.frames.isEmpty)
    #expect(clock.isRunning)
    clock.tick(at: ms(10))
    #expect(target.frames.isEmpty)
    frames.release(1)
    clock.tick(at: ms(20))
    #expect(target.frames == [1])
    #expect(!clock.isRunning)
    #expect(player.statistics == PlaybackStatistics())
  }

  @Test func stopResetsToTheModesFirstFrameUnlessToldNotTo() {
    let clock = ManualFrameClock()
    let player = AnimationPlayer(image: image(4, loopCount: 0), clock: clock, target: RecordingTarget())
    player.mode = .reverse
    player.start()
    for time in stride(from: 0, through: 500, by: 100) { clock.tick(at: ms(time)) }
    #expect(player.currentFrame == 2)
    #expect(player.completedLoops == 1)
    #expect(player.resetsFrameIndexWhenStopped)
    player.stop()
    #expect(player.currentFrame == 3)
    #expect(player.completedLoops == 0)
    player.start()
    for time in stride(from: 1000, through: 1600, by: 100) { clock.tick(at: ms(time)) }
    #expect(player.currentFrame == 1)
    player.resetsFrameIndexWhenStopped = false
    player.stop()
    #expect(!clock.isRunning)
    #expect(player.currentFrame == 1)
    #expect(player.completedLoops == 1)
  }

  @Test func stopDropsTheBuffersFramesOnlyWhenAskedTo() async {
    let buffer = AnimationFrameBuffer(
      frameCount: 10, frameSize: PixelSize(width: 4, height: 4), budgetBytes: 4 * 64
    ) { _ throws(MagpieError) in PixelBuffer(width: 4, height: 4) }
    let clock = ManualFrameClock()
    let player = AnimationPlayer(
      timeline: AnimationTimeline(durations: Array(repeating: ms(100), count: 10), loopCount: 0), frames: buffer,
      clock: clock, target: RecordingTarget())
    #expect(!player.clearsBufferWhenStopped)
    player.start()
    await buffer.waitUntilIdle()
    player.stop()
    await buffer.waitUntilIdle()
    #expect(buffer.heldBytes == 4 * 64)
    player.clearsBufferWhenStopped = true
    player.start()
    await buffer.waitUntilIdle()
    player.stop()
    #expect(buffer.heldBytes == 0)
    // Nothing refills it until playback asks again.
    await buffer.waitUntilIdle()
    #expect(buffer.heldBytes == 0)
    player.start()
    await buffer.waitUntilIdle()
    #expect(buffer.heldBytes == 4 * 64)
  }

  @Test func theRateChangesWhilePlaying() {
    let clock = ManualFrameClock()
    let target = RecordingTarget()
    let player = AnimationPlayer(image: image(5), clock: clock, target: target)
    player.start()
    clock.tick(at: .zero)
    clock.tick(at: ms(50))
    player.playbackRate = 2
    // The 25 ms since the last tick play at the new rate: 50 ms, frame 0 is done.
    clock.tick(at: ms(75))
    #expect(target.frames == [0, 1])
    clock.tick(at: ms(124))
    #expect(target.frames == [0, 1])
    clock.tick(at: ms(125))
    #expect(target.frames == [0, 1, 2])
    player.playbackRate = 0.5
    clock.tick(at: ms(324))
    #expect(target.frames == [0, 1, 2])
    clock.tick(at: ms(325))
    #expect(target.frames == [0, 1, 2, 3])
    #expect(player.isPlaying)
    #expect(player.statistics.skippedFrames == 0)
  }
}
