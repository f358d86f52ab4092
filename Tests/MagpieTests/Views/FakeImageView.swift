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
    /// A progressive preview (a partial image), shown with this transition.
    case preview(ImageTransition)
  }

  let imageBindingState = ImageBindingState()
  let indicator = FakeIndicator()
  var clock: ManualFrameClock?
  /// What ``displayPixelSize`` says.
  var pixelSize: PixelSize?
  /// What ``displayContentMode`` says.
  var contentMode: ImageProcessors.Resizing.Mode = .fit
  private(set) var events: [Event] = []
  private(set) var shown: Image?

  var imageIndicator: (any ImageIndicator)? { indicator }
  var animationClock: (any FrameClock)? { clock }
  var displayPixelSize: PixelSize? { pixelSize }
  var displayContentMode: ImageProcessors.Resizing.Mode { contentMode }

  /// The tag of the image shown now, `nil` for none or a placeholder.
  var shownTag: Int? { shown.map(TaggedImages.tag) }

  func display(_ image: Image?) {
    shown = image
    events.append(.image(image.map(TaggedImages.tag) ?? -1, .none))
  }

  func display(_ image: Image?, transition: ImageTransition) {
    shown = image
    if let image, image.isPartial {
      events.append(.preview(transition))
      previewsShown.increment()
    } else {
      events.append(.image(image.map(TaggedImages.tag) ?? -1, transition))
    }
  }

  func displayPlaceholder(_ placeholder: Image?) {
    shown = nil
    events.append(.placeholder(placeholder.map(TaggedImages.tag)))
  }

  func displayHighlighted(_ image: Image?) { events.append(.highlighted(image.map(TaggedImages.tag))) }

  func imageDidChange() {
    events.append(.layout)
    layouts.increment()
  }

  /// Counts ``imageDidChange()`` calls, for tests to await.
  let layouts = AsyncCounter()

  /// Counts previews shown, for tests to await.
  let previewsShown = AsyncCounter()

  /// Counts animation frames shown, for tests to await.
  let framesShown = AsyncCounter()

  func displayAnimationFrame(_ frame: PixelBuffer, index: Int) {
    events.append(.frame(index))
    framesShown.increment()
  }

  func clearEvents() { events = [] }
}

/// Counts a spinner's starts and stops, and records the progress it shows.
@MainActor
final class FakeIndicator: ImageIndicator {
  private(set) var starts = 0
  private(set) var stops = 0
  private(set) var progress: [ImageTask.Progress] = []
  var isAnimating: Bool { starts > stops }
  func startAnimating() { starts += 1 }
  func stopAnimating() { stops += 1 }
  func setProgress(_ progress: ImageTask.Progress) { self.progress.append(progress) }
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
