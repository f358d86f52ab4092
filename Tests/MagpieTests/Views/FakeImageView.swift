import Foundation

@testable import Magpie

/// An image view that draws nothing and records what the binding did to
/// it, images named by the tag in their first pixel (see ``TaggedImages``).
@MainActor
final class FakeImageView: HighlightableImageTarget {
  /// One thing the binding did.
  enum Event: Equatable {
    case placeholder(Int?)
    case image(Int, ImageTransition)
    case highlighted(Int?)
    case frame(Int)
    case layout
  }

  let imageBindingState = ImageBindingState()
  let indicator = FakeIndicator()
  var clock: ManualFrameClock?
  private(set) var events: [Event] = []
  private(set) var shown: Image?

  var imageIndicator: (any ImageIndicator)? { indicator }
  var animationClock: (any FrameClock)? { clock }

  /// The tag of the image shown now, `nil` for none or a placeholder.
  var shownTag: Int? { shown.map(TaggedImages.tag) }

  func display(_ image: Image?) {
    shown = image
    events.append(.image(image.map(TaggedImages.tag) ?? -1, .none))
  }

  func display(_ image: Image?, transition: ImageTransition) {
    shown = image
    events.append(.image(image.map(TaggedImages.tag) ?? -1, transition))
  }

  func displayPlaceholder(_ placeholder: Image?) {
    shown = nil
    events.append(.placeholder(placeholder.map(TaggedImages.tag)))
  }

  func displayHighlighted(_ image: Image?) { events.append(.highlighted(image.map(TaggedImages.tag))) }

  func imageDidChange() { events.append(.layout) }

  /// Counts animation frames shown, for tests to await.
  let framesShown = AsyncCounter()

  func displayAnimationFrame(_ frame: PixelBuffer, index: Int) {
    events.append(.frame(index))
    framesShown.increment()
  }

  func clearEvents() { events = [] }
}

/// Counts a spinner's starts and stops.
@MainActor
final class FakeIndicator: ImageIndicator {
  private(set) var starts = 0
  private(set) var stops = 0
  var isAnimating: Bool { starts > stops }
  func startAnimating() { starts += 1 }
  func stopAnimating() { stops += 1 }
}

/// A button that records its image and background per state.
@MainActor
final class FakeButton: ImageButtonTarget {
  let imageBindingState = ImageBindingState()
  var controlState: ControlState = .normal
  private(set) var images: [ControlState: Int] = [:]
  private(set) var backgrounds: [ControlState: Int] = [:]

  func setImage(_ image: Image?, for state: ControlState) { images[state] = image.map(TaggedImages.tag) ?? -1 }

  func setBackgroundImage(_ image: Image?, for state: ControlState) {
    backgrounds[state] = image.map(TaggedImages.tag) ?? -1
  }
}
