import Foundation
import Testing

@testable import Magpie

/// The binding's playback settings reach the player: the mode a load
/// starts in, and a rate changed while it plays.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageBindingPlaybackTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @MainActor @Test func aReverseBindingPlaysBackwardAndARateChangeReachesThePlayer() async throws {
    let gif = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/pan-00.gif"))
    loader.script(url("a.gif"), .respond(body: gif))
    let view = FakeImageView()
    let clock = ManualFrameClock()
    view.clock = clock
    view.magpie.playbackMode = .reverse
    view.magpie.playbackRate = 2
    let done = AsyncCounter()
    view.magpie.setImage(with: url("a.gif"), manager: try manager()) { _ in done.increment() }
    await done.wait(for: 1)
    let player = try #require(view.magpie.animationPlayer)
    let last = player.timeline.frameCount - 1
    #expect(player.mode == .reverse && player.playbackRate == 2)
    #expect(player.currentFrame == last)
    // Every frame was decoded up front: ticks show frames at once. Twice
    // as fast, 80 ms frames, one 80 ms tick goes back two frames.
    clock.tick(at: .zero)
    clock.tick(at: .milliseconds(80))
    #expect(player.currentFrame == last - 2)
    view.magpie.playbackRate = 1
    #expect(player.playbackRate == 1)
    clock.tick(at: .milliseconds(160))
    #expect(player.currentFrame == last - 3)
    view.magpie.playbackMode = .forward
    clock.tick(at: .milliseconds(240))
    #expect(player.currentFrame == last - 2)
  }
}
