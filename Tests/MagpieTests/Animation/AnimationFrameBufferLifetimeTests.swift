import Dispatch
import Testing

@testable import Magpie

/// Dropping every player of an animation stops its decoding.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct AnimationFrameBufferLifetimeTests {
  @Test func droppingTheLastPlayerStopsBackgroundDecoding() async {
    let queue = DispatchQueue(label: "test.frame-buffer")
    let gate = DispatchSemaphore(value: 0)
    let starts = Locked(0)
    let started = AsyncCounter()
    var player: AnimationPlayer? = {
      let buffer = AnimationFrameBuffer(
        frameCount: 100, frameSize: PixelSize(width: 4, height: 4), budgetBytes: 10 * 64, monitor: nil, queue: queue
      ) { _ throws(MagpieError) in
        let first = starts.withLock { count -> Bool in
          count += 1
          return count == 1
        }
        started.increment()
        if first { gate.wait() }
        return PixelBuffer(width: 4, height: 4)
      }
      return AnimationPlayer(
        timeline: AnimationTimeline(durations: Array(repeating: .milliseconds(100), count: 100), loopCount: 0),
        frames: buffer, clock: ManualFrameClock(), target: RecordingTarget())
    }()
    // The first frame's decode is running when the last player goes.
    await started.wait(for: 1)
    #expect(player?.currentFrame == 0)
    player = nil
    gate.signal()
    // Drain the queue twice: the running decode ends, and anything it queued runs.
    queue.sync {}
    queue.sync {}
    #expect(starts.value == 1)
  }
}
