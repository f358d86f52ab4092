import Testing

@testable import Magpie

/// The timing rules of playback, as a value: no clock, no threads.
@Suite struct PlaybackStateTests {
  private func ms(_ value: Int) -> Duration { .milliseconds(value) }

  @Test func framesAdvanceByTheirDurations() {
    var state = PlaybackState(timeline: AnimationTimeline(durations: [ms(100), ms(200), ms(100)], loopCount: 0))
    let shown = [50, 50, 50, 100, 50, 50, 100].map { state.advance(by: ms($0)) { _ in true }.shownFrame }
    // At 50, 100, 150, 250, 300, 350 and 450 ms: frame 1 from 100, 2 from 300, 0 from 400.
    #expect(shown == [nil, 1, nil, nil, 2, nil, 0])
  }

  @Test func aLateTickSkipsTheFramesWhoseTimePassed() {
    var state = PlaybackState(timeline: AnimationTimeline(durations: Array(repeating: ms(100), count: 5), loopCount: 0))
    let step = state.advance(by: ms(350)) { _ in true }
    #expect(step.shownFrame == 3)
    #expect(step.dueFrames == 3)
    #expect(step.skippedFrames == 2)
    #expect(state.elapsedInFrame == ms(50))
  }

  @Test func anHourLongStallCostsWholeLoopsNotSteps() {
    var state = PlaybackState(timeline: AnimationTimeline(durations: [ms(100), ms(100)], loopCount: 0))
    let step = state.advance(by: .seconds(3600) + ms(150)) { _ in true }
    #expect(step.shownFrame == 1)
    #expect(step.completedLoops == 18000)
    #expect(state.elapsedInFrame == ms(50))
  }

  @Test func theLastLoopEndsOnTheLastFrame() {
    var state = PlaybackState(timeline: AnimationTimeline(durations: [ms(100), ms(100)], loopCount: 2))
    let steps = (0..<5).map { _ in state.advance(by: ms(100)) { _ in true } }
    #expect(steps.map(\.shownFrame) == [1, 0, 1, nil, nil])
    // The second loop is frames 0 and 1 from 200 to 400 ms: it ends at 400.
    #expect(steps.map(\.completedLoops) == [0, 1, 0, 1, 0])
    #expect(steps.map(\.finished) == [false, false, false, true, false])
    #expect(state.frame == 1)
    #expect(state.isFinished)
    // Even a very late tick cannot play past the last loop.
    var late = PlaybackState(timeline: AnimationTimeline(durations: [ms(100), ms(100)], loopCount: 3))
    let step = late.advance(by: .seconds(60)) { _ in true }
    #expect(step.completedLoops == 3)
    #expect(step.finished)
    #expect(late.frame == 1)
  }

  @Test func aFrameNotReadyHoldsTheCurrentOneAndPlaybackResumesFromThere() {
    var state = PlaybackState(timeline: AnimationTimeline(durations: Array(repeating: ms(100), count: 4), loopCount: 0))
    var ready: Set<Int> = [0]
    let held = state.advance(by: ms(250)) { ready.contains($0) }
    #expect(held.waitingForFrame)
    #expect(held.shownFrame == nil)
    #expect(state.frame == 0)
    #expect(state.elapsedInFrame == ms(100))
    ready.insert(1)
    // The time spent waiting is not made up by skipping: frame 1 comes next.
    #expect(state.advance(by: ms(10)) { ready.contains($0) }.shownFrame == 1)
    #expect(state.elapsedInFrame == ms(10))
  }

  @Test func shortDurationsAreRaisedAndSeekingRestartsAFinishedPlayback() {
    let timeline = AnimationTimeline(durations: [.zero, ms(5), ms(40)], loopCount: 1)
    #expect(timeline.durations == [ms(10), ms(10), ms(40)])
    var state = PlaybackState(timeline: timeline)
    #expect(state.advance(by: ms(60)) { _ in true }.finished)
    state.seek(toFrame: 7)
    #expect(state.frame == 2)
    #expect(!state.isFinished)
    state.reset()
    #expect(state == PlaybackState(timeline: timeline))
  }
}
