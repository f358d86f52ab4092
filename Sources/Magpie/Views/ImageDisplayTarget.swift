/// Something Magpie loads images into: an image view of any UI toolkit
/// (SDWebImage's UIImageView+WebCache, Kingfisher's `imageView.kf`).
/// Adopt it, keep an ``ImageBindingState``, and every load goes through
/// ``magpie``: `view.magpie.setImage(with: url, placeholder: spinnerImage)`.
///
/// Only ``display(_:)`` and ``imageBindingState`` are required; the rest
/// have defaults that do nothing more than show the image. Every call
/// comes on the main actor.
@MainActor
public protocol ImageDisplayTarget: AnyObject, Sendable {
  /// Where the binding keeps this target's loads, current URLs and
  /// animation player; it lives as long as the target does.
  var imageBindingState: ImageBindingState { get }

  /// Shows `image` (`nil` shows nothing).
  func display(_ image: Image?)

  /// Shows `image` with `transition`: a fade for an image that came from
  /// the disk or the network. Default: ``display(_:)``.
  func display(_ image: Image?, transition: ImageTransition)

  /// Shows the placeholder while a load runs (or after it failed, with
  /// ``ImageDisplayOptions/delayPlaceholder``). Default: ``display(_:)``.
  func displayPlaceholder(_ placeholder: Image?)

  /// The spinner started when a load starts and stopped when it ends; `nil`
  /// (the default) shows none.
  var imageIndicator: (any ImageIndicator)? { get }

  /// Called after the binding set an image, for targets whose layout
  /// follows their image's size. Default: nothing.
  func imageDidChange()

  /// The clock animated images play on (the toolkit's frame clock); `nil`
  /// (the default) shows an animation's first frame and does not play it.
  var animationClock: (any FrameClock)? { get }

  /// Shows frame `index` of the animation now playing (straight alpha,
  /// canvas-sized). Default: ``display(_:)`` of the frame.
  func displayAnimationFrame(_ frame: PixelBuffer, index: Int)

  /// The target's size in device pixels (its allocation times its scale
  /// factor), for loads with ``ImageBinding/loadsAtDisplaySize``; `nil`
  /// (the default) while it is not known, which loads at full size.
  var displayPixelSize: PixelSize? { get }

  /// How the target fits an image into ``displayPixelSize``: `.fill` for
  /// a view that covers its area and crops, `.fit` (the default) for one
  /// that shows the whole image.
  var displayContentMode: ImageProcessors.Resizing.Mode { get }
}

extension ImageDisplayTarget {
  /// Shows the image without a transition.
  public func display(_ image: Image?, transition: ImageTransition) { display(image) }
  /// Shows the placeholder as an image.
  public func displayPlaceholder(_ placeholder: Image?) { display(placeholder) }
  /// No spinner.
  public var imageIndicator: (any ImageIndicator)? { nil }
  /// Nothing to lay out.
  public func imageDidChange() {}
  /// No clock: animations show their first frame.
  public var animationClock: (any FrameClock)? { nil }
  /// Shows the frame as a still image.
  public func displayAnimationFrame(_ frame: PixelBuffer, index: Int) { display(Image(pixels: frame)) }
  /// Not known: loads are full size.
  public var displayPixelSize: PixelSize? { nil }
  /// The whole image shows.
  public var displayContentMode: ImageProcessors.Resizing.Mode { .fit }

  /// The binding that loads images into this target.
  public var magpie: ImageBinding<Self> { ImageBinding(self) }
}
