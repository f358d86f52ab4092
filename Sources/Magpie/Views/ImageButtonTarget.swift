/// A button Magpie loads images into, an image and a background image per
/// ``ControlState`` (SDWebImage's UIButton+WebCache). Adopt it, keep an
/// ``ImageBindingState``, and load through ``magpie``:
/// `button.magpie.setImage(with: url, for: .highlighted)`.
@MainActor
public protocol ImageButtonTarget: AnyObject, Sendable {
  /// Where the binding keeps the button's loads and URLs.
  var imageBindingState: ImageBindingState { get }

  /// The state the button is in now.
  var controlState: ControlState { get }

  /// Shows `image` as the button's image in `state`.
  func setImage(_ image: Image?, for state: ControlState)

  /// Shows `image` as the button's background in `state`.
  func setBackgroundImage(_ image: Image?, for state: ControlState)

  /// The spinner run while a load for the button runs; `nil` by default.
  var imageIndicator: (any ImageIndicator)? { get }
}

extension ImageButtonTarget {
  /// No spinner.
  public var imageIndicator: (any ImageIndicator)? { nil }

  /// The binding that loads images into this button.
  public var magpie: ImageButtonBinding<Self> { ImageButtonBinding(self) }
}
