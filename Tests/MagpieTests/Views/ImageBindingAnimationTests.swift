import Foundation
import Testing

@testable import Magpie

/// Animated images play in the target through the player on the target's
/// clock, pause while it is hidden, and stop when another load replaces
/// them.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageBindingAnimationTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
    // GIFs through a coder with a frame source, so the animation loads on demand.
    parts.registry.register(CountingFrameCoder())
  }

  /// The frames `view` showed, a frame shown twice in a row counted once.
  @MainActor private func frames(_ view: FakeImageView) -> [Int] {
    let shown = view.events.compactMap { if case .frame(let index) = $0 { index } else { nil } }
    return shown.enumerated().filter { $0.offset == 0 || shown[$0.offset - 1] != $0.element }.map(\.element)
  }

  @MainActor @Test func anAnimationPlaysPausesWhileHiddenAndStopsWhenReplaced() async throws {
    let gif = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/pan-00.gif"))
    loader.script(url("a.gif"), .respond(body: gif))
    loader.script(url("s.png"), .respond(body: try TaggedImages.png(5)))
    let manager = try manager()
    let view = FakeImageView()
    let clock = ManualFrameClock()
    view.clock = clock
    let done = AsyncCounter()
    var loaded: Image?
    view.magpie.setImage(with: url("a.gif"), options: [.decodeFramesOnDemand], manager: manager) { result in
      loaded = try? result.get().image
      done.increment()
    }
    await done.wait(for: 1)
    let player = try #require(view.magpie.animationPlayer)
    // The player's shared buffer; letting it decode ahead before each tick
    // keeps the test from racing it (playback itself never waits).
    let buffer = try #require(try loaded?.animation?.frameBuffer())
    // The poster shows with the image; the player shows frame 0 as well
    // if the buffer had it at start. The first tick sets the time.
    await buffer.waitUntilIdle()
    clock.tick(at: .zero)
    for step in 1...3 {
      await buffer.waitUntilIdle()
      // Frames are 80 ms long: ticks a frame apart show the next ones.
      let before = view.events.count { if case .frame = $0 { true } else { false } }
      clock.tick(at: .milliseconds(80 * step))
      await view.framesShown.wait(for: before + 1)
    }
    #expect(Array(frames(view).drop { $0 == 0 }) == [1, 2, 3])
    view.magpie.isVisible = false
    clock.tick(at: .milliseconds(400))
    #expect(player.currentFrame == 3)
    view.magpie.isVisible = true
    view.magpie.setImage(with: url("s.png"), manager: manager) { _ in done.increment() }
    #expect(view.magpie.animationPlayer == nil)
    clock.tick(at: .milliseconds(800))
    await done.wait(for: 2)
    #expect(view.shownTag == 5)
    #expect(Array(frames(view).drop { $0 == 0 }) == [1, 2, 3])
  }
}
