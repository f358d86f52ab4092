import Foundation

/// Loads images into one ``ImageButtonTarget``: an image and a background
/// image per ``ControlState``, each under its own operation key, so a load
/// for one state never cancels another's.
@MainActor
public struct ImageButtonBinding<Target: ImageButtonTarget> {
  /// The button.
  public let target: Target

  /// The binding of `target`.
  public init(_ target: Target) { self.target = target }

  /// The operation key of the image for `state`.
  public static func imageKey(for state: ControlState) -> String { "\(Target.self).image.\(state.rawValue)" }

  /// The operation key of the background image for `state`.
  public static func backgroundKey(for state: ControlState) -> String {
    "\(Target.self).background.\(state.rawValue)"
  }

  /// Loads `url` as the button's image in `state` (a `nil` URL shows the
  /// placeholder and fails); see ``ImageBinding`` for the rest.
  @discardableResult
  public func setImage(
    with url: URL?, for state: ControlState, placeholder: Image? = nil, options: ImageLoadingOptions = [],
    displayOptions: ImageDisplayOptions = [], manager: ImageManager = .shared,
    completion: (@MainActor (Result<ImageResult, MagpieError>) -> Void)? = nil
  ) -> ImageTask? {
    return binder(key: Self.imageKey(for: state)) { [weak target] in target?.setImage($0, for: state) }.load(
      url.map { ImageRequest(url: $0, options: options) }, url: url, placeholder: placeholder,
      options: displayOptions, manager: manager, progress: nil, completion: completion)
  }

  /// Loads `url` as the button's background image in `state`.
  @discardableResult
  public func setBackgroundImage(
    with url: URL?, for state: ControlState, placeholder: Image? = nil, options: ImageLoadingOptions = [],
    displayOptions: ImageDisplayOptions = [], manager: ImageManager = .shared,
    completion: (@MainActor (Result<ImageResult, MagpieError>) -> Void)? = nil
  ) -> ImageTask? {
    return binder(key: Self.backgroundKey(for: state)) { [weak target] in target?.setBackgroundImage($0, for: state) }
      .load(
        url.map { ImageRequest(url: $0, options: options) }, url: url, placeholder: placeholder,
        options: displayOptions, manager: manager, progress: nil, completion: completion)
  }

  /// The URL last given for the image in `state`.
  public func imageURL(for state: ControlState) -> URL? {
    target.imageBindingState.url(forKey: Self.imageKey(for: state))
  }

  /// The URL last given for the background image in `state`.
  public func backgroundImageURL(for state: ControlState) -> URL? {
    target.imageBindingState.url(forKey: Self.backgroundKey(for: state))
  }

  /// The image URL of the button's current state, else of ``ControlState/normal``.
  public var currentImageURL: URL? { imageURL(for: target.controlState) ?? imageURL(for: .normal) }

  /// The background URL of the button's current state, else of ``ControlState/normal``.
  public var currentBackgroundImageURL: URL? {
    backgroundImageURL(for: target.controlState) ?? backgroundImageURL(for: .normal)
  }

  /// Cancels the image load for `state`.
  public func cancelImageLoad(for state: ControlState) {
    binder(key: Self.imageKey(for: state)) { _ in }.cancel()
  }

  /// Cancels the background image load for `state`.
  public func cancelBackgroundImageLoad(for state: ControlState) {
    binder(key: Self.backgroundKey(for: state)) { _ in }.cancel()
  }

  private func binder(key: String, show: @escaping @MainActor (Image?) -> Void) -> ImageLoadBinder {
    ImageLoadBinder(
      state: target.imageBindingState, key: key, indicator: target.imageIndicator,
      hooks: ImageLoadBinder.Hooks(showPlaceholder: show, showImage: { image, _ in show(image) }, play: nil))
  }
}
