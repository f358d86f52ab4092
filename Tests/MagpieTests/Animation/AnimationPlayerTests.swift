import Foundation
import Testing

@testable import Magpie

/// A player driven by a manual frame clock: which frames a target sees,
/// at which tick.
@Suite struct AnimationPlayerTests {
  private func ms(_ value: Int) -> Duration { .milliseconds(value) }

  /// An animation of `durations` with a 2x2 frame each.
  private func image(_ durations: [Duration], loopCount: Int = 0) -> Image {
    var image = Image(pixels: PixelBuffer(width: 2, height: 2))
    image.frames = durations.map { ImageFrame(pixels: PixelBuffer(width: 2, height: 2), duration: $0) }
    image.loopCount = loopCount
    return image
  }

  @Test func ticksGiveTheExactFrameSequenceAndLateTicksSkip() {
    let clock = ManualFrameClock()
    let target = RecordingTarget()
    let player = AnimationPlayer(image: image([ms(100), ms(200), ms(100), ms(100)]), clock: clock, target: target)
    player.start()
    #expect(clock.isRunning)
    for time in stride(from: 0, through: 400, by: 50) { clock.tick(at: ms(time)) }
    #expect(target.frames == [0, 1, 2, 3])
    // A tick 250 ms late passes frame 0 and lands on frame 1.
    clock.tick(at: ms(750))
    #expect(target.frames == [0, 1, 2, 3, 1])
    #expect(player.statistics.skippedFrames == 1)
    #expect(player.statistics.dueFrames == 5)
  }

  @Test func loopsCountDownAndTheLastOneStopsOnTheLastFrame() {
    let clock = ManualFrameClock()
    let target = RecordingTarget()
    let player = AnimationPlayer(image: image([ms(100), ms(100)], loopCount: 2), clock: clock, target: target)
    let loops = Locked<[String]>([])
    player.onLoopCompleted = { done, remaining in loops.withLock { $0.append("\(done)/\(remaining ?? -1)") } }
    player.onFinished = { loops.withLock { $0.append("finished") } }
    player.start()
    clock.tick(at: .zero)
    for time in [100, 150, 200, 300, 400] {
      clock.tick(at: ms(time))
      if time == 150 { #expect(loops.value.isEmpty) }
      if time == 200 { #expect(loops.value == ["1/1"]) }
    }
    #expect(loops.value == ["1/1", "2/0", "finished"])
    #expect(target.frames == [0, 1, 0, 1])
    #expect(!player.isPlaying)
    #expect(!clock.isRunning)
    #expect(player.currentFrame == 1)
  }

  @Test func aGIFDelayOfZeroOrTenMillisecondsPlaysAsOneHundred() throws {
    let frames = [Duration.zero, ms(10), ms(10)].enumerated().map { index, duration in
      ImageFrame(
        pixels: PixelBuffer(width: 2, height: 2, straightRGBA: [UInt8](repeating: UInt8(index * 80), count: 16)),
        duration: duration)
    }
    var source = Image(pixels: frames[0].pixels)
    source.frames = frames
    let gif = try CoderRegistry.shared.decode(try CoderRegistry.shared.encode(source, as: .gif))
    #expect(gif.frames.map(\.duration) == [ms(100), ms(100), ms(100)])
    let clock = ManualFrameClock()
    let target = RecordingTarget()
    let player = AnimationPlayer(image: gif, clock: clock, target: target)
    player.start()
    for time in [0, 10, 50, 99] { clock.tick(at: ms(time)) }
    #expect(target.frames == [0])
    clock.tick(at: ms(100))
    clock.tick(at: ms(200))
    #expect(target.frames == [0, 1, 2])
  }

  @Test func aHiddenTargetPausesAndResumesWhereItWas() {
    let clock = ManualFrameClock()
    let target = RecordingTarget()
    let player = AnimationPlayer(image: image([ms(100), ms(100), ms(100)]), clock: clock, target: target)
    player.start()
    clock.tick(at: .zero)
    clock.tick(at: ms(150))
    #expect(target.frames == [0, 1])
    player.isVisible = false
    #expect(!clock.isRunning)
    #expect(!player.isPlaying)
    clock.tick(at: ms(5000))
    player.isVisible = true
    #expect(clock.isRunning)
    // The first tick after showing sets the time; frame 1 had 50 ms left.
    clock.tick(at: ms(6000))
    clock.tick(at: ms(6049))
    #expect(target.frames == [0, 1])
    clock.tick(at: ms(6050))
    #expect(target.frames == [0, 1, 2])
  }

  @Test func aFrameStillDecodingHoldsTheCurrentOne() {
    let clock = ManualFrameClock()
    let target = RecordingTarget()
    let frames = HeldFrames()
    let player = AnimationPlayer(
      timeline: AnimationTimeline(durations: [ms(100), ms(100), ms(100)], loopCount: 0), frames: frames,
      clock: clock, target: target)
    player.start()
    clock.tick(at: .zero)
    clock.tick(at: ms(250))
    #expect(target.frames == [0])
    #expect(player.statistics.waits == 1)
    frames.release(1)
    clock.tick(at: ms(310))
    #expect(target.frames == [0, 1])
  }

  @Test func rateStopAndSeek() {
    let clock = ManualFrameClock()
    let target = RecordingTarget()
    let player = AnimationPlayer(image: image([ms(100), ms(100), ms(100)]), clock: clock, target: target)
    player.playbackRate = 2
    player.start()
    clock.tick(at: .zero)
    clock.tick(at: ms(50))
    #expect(target.frames == [0, 1])
    player.stop()
    #expect(player.currentFrame == 0)
    #expect(!clock.isRunning)
    player.seek(toFrame: 2)
    #expect(target.frames == [0, 1, 2])
    player.playbackRate = 1
    player.start()
    clock.tick(at: ms(1000))
    clock.tick(at: ms(1100))
    #expect(target.frames == [0, 1, 2, 2, 0])
  }
}
