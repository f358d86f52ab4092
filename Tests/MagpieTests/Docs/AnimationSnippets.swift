import Foundation
import Magpie

/// The code the Animation article quotes, compiled with the tests.
enum AnimationSnippets {
  // snippet.begin animation-target
  /// Shows each frame it is given; here, says which.
  final class FrameView: AnimationTarget {
    func show(_ frame: PixelBuffer, index: Int) { print("frame \(index), \(frame.size)") }
  }
  // snippet.end

  // snippet.begin animation-cell
  /// A view that plays what it loads on its clock: `display` shows the
  /// poster, then each frame.
  @MainActor final class AnimatedCell: ImageDisplayTarget {
    let imageBindingState = ImageBindingState()
    let animationClock: (any FrameClock)? = TimerFrameClock()
    var shown: PixelBuffer?
    func display(_ image: Image?) { shown = image?.pixels }
  }
  // snippet.end

  /// The article's load for playback: the poster now, the rest on demand.
  static func loadForPlayback(_ manager: ImageManager, _ url: URL) async throws -> AnimatedImage? {
    // snippet.begin animation-load
    let request = ImageRequest(url: url, options: [.decodeFramesOnDemand])
    let image = try await manager.image(for: request).image
    if let animation = image.animation {
      print(animation.canvasSize, animation.timeline.frameCount, animation.timeline.loopCount)
    }
    // snippet.end
    return image.animation
  }

  /// The article's player: `data`'s animation, out and back, twice, on a
  /// clock ticked by hand.
  static func play(_ data: Data) throws -> AnimationPlayer {
    // snippet.begin animation-player
    let animation = try AnimatedImage(data: data, budgetBytes: 8 << 20)
    let clock = ManualFrameClock()  // a TimerFrameClock() ticks by itself
    let player = try animation.makePlayer(clock: clock, target: FrameView())
    player.mode = .bounce  // 0...n-1, then back down to 1
    player.loopCountOverride = 2  // whatever the file says; 0 plays forever
    player.playbackRate = 1.5
    player.onFinished = { print("finished") }
    player.start()
    clock.tick(at: .milliseconds(16))  // at each frame the UI draws, with its time
    player.stepForward()  // a scrubber: pauses and shows the next frame in the mode's order
    // snippet.end
    return player
  }
}
