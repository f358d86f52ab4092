import Testing

@testable import Magpie

/// The frame buffer decoding ahead of playback within its budget.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct AnimationFrameBufferTests {
  /// 4x4 frames (64 bytes each) whose first byte names the frame.
  private func buffer(frames: Int, budgetFrames: Int, failingAt failure: Int? = nil) -> AnimationFrameBuffer {
    AnimationFrameBuffer(
      frameCount: frames, frameSize: PixelSize(width: 4, height: 4), budgetBytes: budgetFrames * 64
    ) { index throws(MagpieError) in
      if index == failure { throw MagpieError(.corruptData, "frame \(index) is corrupt") }
      var bytes = [UInt8](repeating: 255, count: 64)
      bytes[0] = UInt8(index % 256)
      return PixelBuffer(width: 4, height: 4, straightRGBA: bytes)
    }
  }

  @Test func anAnimationThatFitsIsDecodedOnceAndHeldWhole() async {
    let buffer = buffer(frames: 10, budgetFrames: 20)
    await buffer.waitUntilIdle()
    #expect(buffer.decodeCount == 10)
    for loop in 0..<3 {
      for index in 0..<10 {
        #expect(buffer.frameIfReady(index)?.withUnsafeBytes { $0[0] } == UInt8(index), "loop \(loop)")
      }
    }
    await buffer.waitUntilIdle()
    #expect(buffer.decodeCount == 10)
  }

  @Test func longPlaybackOfALargeAnimationNeverHoldsMoreThanTheBudget() async {
    let buffer = buffer(frames: 100, budgetFrames: 5)
    for step in 0..<300 {
      await buffer.waitUntilIdle()
      let index = step % 100
      #expect(buffer.frameIfReady(index)?.withUnsafeBytes { $0[0] } == UInt8(index))
      #expect(buffer.heldBytes <= 5 * 64)
    }
    #expect(buffer.peakBytes == 5 * 64)
    // Each frame of each loop decoded once, plus the window's lead.
    #expect(buffer.decodeCount <= 300 + 5)
  }

  @Test func memoryPressureDropsToOneFrameAndTheWindowRefillsAfter() async {
    let buffer = buffer(frames: 50, budgetFrames: 8)
    await buffer.waitUntilIdle()
    #expect(buffer.heldBytes == 8 * 64)
    #expect(buffer.frameIfReady(3) != nil)
    buffer.enterMemoryPressure()
    #expect(buffer.heldBytes == 64)
    await buffer.waitUntilIdle()
    #expect(buffer.heldBytes == 64)
    #expect(buffer.frameIfReady(3) != nil)
    buffer.leaveMemoryPressure()
    await buffer.waitUntilIdle()
    #expect(buffer.heldBytes == 8 * 64)
    #expect(buffer.window.wanted == Array(3..<11))
  }

  @Test func closingStopsAllBackgroundDecoding() async {
    let buffer = buffer(frames: 100, budgetFrames: 10)
    _ = buffer.frameIfReady(0)
    buffer.close()
    await buffer.waitUntilIdle()
    let decoded = buffer.decodeCount
    for index in 0..<100 { #expect(buffer.frameIfReady(index) == nil) }
    await buffer.waitUntilIdle()
    #expect(buffer.decodeCount == decoded)
    #expect(buffer.heldBytes == 0)
  }

  @Test func aFrameThatFailsStopsDecodingAndSaysWhy() async {
    let buffer = buffer(frames: 10, budgetFrames: 10, failingAt: 4)
    await buffer.waitUntilIdle()
    #expect(buffer.failure?.code == .corruptData)
    #expect(buffer.decodeCount == 5)
    #expect(buffer.frameIfReady(3) != nil)
    #expect(buffer.frameIfReady(4) == nil)
  }
}
