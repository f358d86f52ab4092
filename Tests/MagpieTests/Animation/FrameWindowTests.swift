import Testing

@testable import Magpie

/// How a frame buffer sizes itself and moves with playback, as a value.
@Suite struct FrameWindowTests {
  /// Decodes everything the window wants, as the buffer's worker would.
  private func fill(_ window: inout FrameWindow) -> [Int] {
    var order: [Int] = []
    while let next = window.nextToDecode() {
      order.append(next)
      let second = window.nextToDecode()
      #expect(second == nil, "one decode at a time")
      let kept = window.finishedDecoding(next)
      #expect(kept)
    }
    return order
  }

  @Test func anAnimationThatFitsTheBudgetIsHeldWhole() {
    var window = FrameWindow(frameCount: 10, frameBytes: 1000, budgetBytes: 50_000)
    #expect(window.holdsEveryFrame)
    let decoded1 = fill(&window)
    #expect(decoded1 == Array(0..<10))
    // Playing on drops nothing.
    for frame in [3, 9, 0] {
      let dropped = window.request(frame)
      #expect(dropped.isEmpty)
    }
    #expect(window.cached.count == 10)
    let next1 = window.nextToDecode()
    #expect(next1 == nil)
  }

  @Test func aLargerOneKeepsASlidingWindowFromTheFrameAskedFor() {
    var window = FrameWindow(frameCount: 10, frameBytes: 1000, budgetBytes: 3500)
    #expect(window.capacity == 3)
    let decoded2 = fill(&window)
    #expect(decoded2 == [0, 1, 2])
    let dropped1 = window.request(1)
    #expect(dropped1 == [0])
    let decoded3 = fill(&window)
    #expect(decoded3 == [3])
    // Wrapping past the end, as playback does.
    let dropped2 = window.request(9)
    #expect(dropped2 == [2, 3])
    let decoded4 = fill(&window)
    #expect(decoded4 == [9, 0])
    #expect(window.cachedBytes <= 3500)
  }

  @Test func aFrameFinishedAfterTheWindowMovedAwayIsDropped() {
    var window = FrameWindow(frameCount: 10, frameBytes: 1000, budgetBytes: 2000)
    let next1 = window.nextToDecode()
    #expect(next1 == 0)
    _ = window.request(5)
    let kept1 = window.finishedDecoding(0)
    #expect(kept1 == false)
    #expect(window.cached.isEmpty)
    let decoded5 = fill(&window)
    #expect(decoded5 == [5, 6])
  }

  @Test func memoryPressureHoldsOneFrameAndTheWindowRefillsAfter() {
    var window = FrameWindow(frameCount: 10, frameBytes: 1000, budgetBytes: 4000)
    _ = fill(&window)
    let dropped3 = window.request(2)
    #expect(dropped3 == [0, 1])
    _ = fill(&window)
    let dropped4 = window.enterMemoryPressure()
    #expect(dropped4 == [3, 4, 5])
    #expect(window.cached == [2])
    let next1 = window.nextToDecode()
    #expect(next1 == nil)
    window.leaveMemoryPressure()
    let decoded6 = fill(&window)
    #expect(decoded6 == [3, 4, 5])
    #expect(window.cached.count == 4)
  }

  @Test func aBudgetSmallerThanOneFrameStillHoldsOne() {
    var window = FrameWindow(frameCount: 4, frameBytes: 10_000, budgetBytes: 100)
    #expect(window.capacity == 1)
    let decoded7 = fill(&window)
    #expect(decoded7 == [0])
    window.abandonedDecoding(7)
    let dropped5 = window.request(-1)
    #expect(dropped5 == [0])
    #expect(window.anchor == 3)
  }
}
