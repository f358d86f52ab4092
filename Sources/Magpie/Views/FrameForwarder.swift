import Foundation

/// The animation target a binding gives its player: hands each frame to
/// the display target on the main actor, and drops frames once the
/// binding has moved on (a new load, a cancel), even ones already sent.
final class FrameForwarder: AnimationTarget, Sendable {
  private struct Link {
    weak var target: (any ImageDisplayTarget)?
  }

  @MainActor private var link: Link

  @MainActor init(_ target: any ImageDisplayTarget) {
    link = Link(target: target)
  }

  /// Stops forwarding.
  @MainActor func detach() { link.target = nil }

  func show(_ frame: PixelBuffer, index: Int) {
    Task { @MainActor in self.link.target?.displayAnimationFrame(frame, index: index) }
  }
}
