import Testing

@testable import Magpie

/// Forward, reverse and bounce orders as a value: which frames one tick
/// after another shows, where loops end, and where stepping lands.
@Suite struct PlaybackModeTests {
  private func ms(_ value: Int) -> Duration { .milliseconds(value) }

  private func timeline(_ count: Int, loopCount: Int = 0) -> AnimationTimeline {
    AnimationTimeline(durations: Array(repeating: ms(100), count: count), loopCount: loopCount)
  }

  /// The frames shown by `ticks` ticks of 100 ms, `nil` where none changed.
  private func shown(_ state: inout PlaybackState, ticks: Int) -> [Int?] {
    (0..<ticks).map { _ in state.advance(by: ms(100)) { _ in true }.shownFrame }
  }

  @Test func forwardPlaysFirstToLastAndWraps() {
    var state = PlaybackState(timeline: timeline(3))
    #expect(state.frame == 0)
    #expect(shown(&state, ticks: 6) == [1, 2, 0, 1, 2, 0])
    #expect(state.completedLoops == 2)
  }

  @Test func reversePlaysLastToFirstForTwoLoopsAndEndsOnTheFirstFrame() {
    var state = PlaybackState(timeline: timeline(4, loopCount: 2), mode: .reverse)
    #expect(state.frame == 3)
    #expect(state.heading == PlaybackHeading(mode: .reverse, isBackward: true))
    var loops: [Int] = []
    var frames: [Int?] = []
    for _ in 0..<9 {
      let step = state.advance(by: ms(100)) { _ in true }
      frames.append(step.shownFrame)
      loops.append(step.completedLoops)
    }
    // 3 2 1 0 | 3 2 1 0 | stays on 0.
    #expect(frames == [2, 1, 0, 3, 2, 1, 0, nil, nil])
    #expect(loops == [0, 0, 0, 1, 0, 0, 0, 1, 0])
    #expect(state.isFinished)
    #expect(state.frame == 0)
  }

  @Test func bounceTurnsAroundWithoutRepeatingTheEndFrames() {
    var state = PlaybackState(timeline: timeline(4), mode: .bounce)
    #expect(state.loopLength == 6)
    #expect(state.loopDuration == ms(600))
    var loops: [Int] = []
    var frames: [Int?] = []
    var backward: [Bool] = []
    for _ in 0..<13 {
      let step = state.advance(by: ms(100)) { _ in true }
      frames.append(step.shownFrame)
      loops.append(step.completedLoops)
      backward.append(state.heading.isBackward)
    }
    // 0 | 1 2 3 2 1 0 | 1 2 3 2 1 0 | 1: a loop is one pass out and back.
    #expect(frames == [1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1])
    #expect(loops == [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0])
    #expect(backward == [false, false, true, true, true, false, false, false, true, true, true, false, false])
  }

  @Test func aFiniteBounceComesBackToTheFirstFrame() {
    var state = PlaybackState(timeline: timeline(3, loopCount: 2), mode: .bounce)
    let frames = shown(&state, ticks: 10)
    #expect(frames == [1, 2, 1, 0, 1, 2, 1, 0, nil, nil])
    #expect(state.isFinished)
    #expect(state.frame == 0)
    #expect(state.completedLoops == 2)
    // A very late tick ends there too, counting only the loops there are.
    var late = PlaybackState(timeline: timeline(3, loopCount: 3), mode: .bounce)
    let step = late.advance(by: .seconds(60)) { _ in true }
    #expect(step.completedLoops == 3)
    #expect(step.finished)
    #expect(late.frame == 0)
  }

  @Test func theLoopCountOverrideReplacesTheFilesCount() {
    var once = PlaybackState(timeline: timeline(2), mode: .forward, loopCountOverride: 1)
    #expect(once.loopCount == 1)
    #expect(shown(&once, ticks: 3) == [1, nil, nil])
    #expect(once.isFinished)
    var forever = PlaybackState(timeline: timeline(2, loopCount: 1), loopCountOverride: 0)
    #expect(shown(&forever, ticks: 6) == [1, 0, 1, 0, 1, 0])
    #expect(!forever.isFinished)
    forever.loopCountOverride = nil
    #expect(forever.loopCount == 1)
    // Past the file's count already: the loop under way is the last.
    #expect(shown(&forever, ticks: 3) == [1, nil, nil])
    #expect(forever.isFinished)
  }

  @Test func stepsMoveAlongTheModesOrderAndWrap() {
    var state = PlaybackState(timeline: timeline(4, loopCount: 1), mode: .bounce)
    state.step(by: 4)
    #expect(state.frame == 2)
    #expect(state.heading.isBackward)
    state.step(by: 3)
    #expect(state.frame == 1)
    state.step(by: -2)
    #expect(state.frame == 1)
    #expect(state.heading.isBackward)
    #expect(state.completedLoops == 0)
    var reverse = PlaybackState(timeline: timeline(4), mode: .reverse)
    reverse.step(by: 1)
    #expect(reverse.frame == 2)
    reverse.step(by: -2)
    #expect(reverse.frame == 0)
  }

  @Test func changingTheModeKeepsTheFrameAndGoesOnFromIt() {
    var state = PlaybackState(timeline: timeline(5))
    // Before anything has played, a mode starts at its own first frame.
    state.mode = .reverse
    #expect(state.frame == 4)
    state.mode = .forward
    #expect(state.frame == 0)
    #expect(shown(&state, ticks: 2) == [1, 2])
    state.mode = .reverse
    #expect(state.frame == 2)
    #expect(shown(&state, ticks: 3) == [1, 0, 4])
    state.mode = .bounce
    // Coming from reverse it keeps going backward, then turns at 0.
    #expect(state.frame == 4)
    #expect(shown(&state, ticks: 6) == [3, 2, 1, 0, 1, 2])
  }

  @Test func upcomingFramesFollowEachMode() {
    #expect(PlaybackHeading.forward.upcomingFrames(from: 8, count: 4, frameCount: 10) == [8, 9, 0, 1])
    let reverse = PlaybackHeading(mode: .reverse)
    #expect(reverse.upcomingFrames(from: 1, count: 4, frameCount: 10) == [1, 0, 9, 8])
    let out = PlaybackHeading(mode: .bounce)
    #expect(out.upcomingFrames(from: 7, count: 5, frameCount: 10) == [7, 8, 9, 6, 5])
    let back = PlaybackHeading(mode: .bounce, isBackward: true)
    #expect(back.upcomingFrames(from: 2, count: 5, frameCount: 10) == [2, 1, 0, 3, 4])
    #expect(back.upcomingFrames(from: 0, count: 9, frameCount: 3) == [0, 1, 2])
  }
}
