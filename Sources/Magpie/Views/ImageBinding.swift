import Foundation

/// Loads images into one ``ImageDisplayTarget``: `view.magpie.setImage(...)`.
/// A new load cancels the target's previous one under the same operation
/// key, and a load that was replaced or cancelled never touches the target.
@MainActor
public struct ImageBinding<Target: ImageDisplayTarget> {
  /// The target.
  public let target: Target

  /// The binding of `target`.
  public init(_ target: Target) { self.target = target }

  /// The operation key loads use unless given one: the target's type name.
  public static var defaultKey: String { String(describing: Target.self) }

  /// Loads `url` into the target (see
  /// ``setImage(with:placeholder:failureImage:displayOptions:manager:operationKey:progress:completion:)-(ImageRequest?,_,_,_,_,_,_,_)``);
  /// a `nil` URL shows the placeholder and fails with
  /// ``MagpieError/Code/invalidArgument``.
  @discardableResult
  public func setImage(
    with url: URL?, placeholder: Image? = nil, failureImage: Image? = nil, options: ImageLoadingOptions = [],
    displayOptions: ImageDisplayOptions = [], manager: ImageManager = .shared, operationKey: String? = nil,
    progress: (@MainActor (ImageTask.Progress) -> Void)? = nil,
    completion: @escaping @MainActor (Result<ImageResult, MagpieError>) -> Void
  ) -> ImageTask? {
    setImage(
      with: url.map { ImageRequest(url: $0, options: options) }, placeholder: placeholder,
      failureImage: failureImage, displayOptions: displayOptions, manager: manager, operationKey: operationKey,
      progress: progress,
      completion: completion)
  }

  /// Loads the image a data provider gives into the target.
  @discardableResult
  public func setImage(
    with provider: any ImageDataProvider, placeholder: Image? = nil, failureImage: Image? = nil,
    options: ImageLoadingOptions = [],
    displayOptions: ImageDisplayOptions = [], manager: ImageManager = .shared, operationKey: String? = nil,
    progress: (@MainActor (ImageTask.Progress) -> Void)? = nil,
    completion: @escaping @MainActor (Result<ImageResult, MagpieError>) -> Void
  ) -> ImageTask? {
    setImage(
      with: ImageRequest(provider: provider, options: options), placeholder: placeholder,
      failureImage: failureImage, displayOptions: displayOptions, manager: manager, operationKey: operationKey,
      progress: progress,
      completion: completion)
  }

  /// Loads `request` into the target: cancels the load before it under
  /// `operationKey`, shows `placeholder` at once (after a failure only,
  /// with ``ImageDisplayOptions/delayPlaceholder``), runs the spinner, and
  /// shows the image (through the target's transition unless it came from
  /// memory) and plays it if it is animated and the target has a clock.
  /// A failure shows `failureImage` (else ``failureImage`` of the binding)
  /// through the transition, and ``retryFailedLoad(forKey:)`` makes the
  /// same call again.
  /// `completion` gets the result, or ``MagpieError/Code/cancelled`` when
  /// another load replaced this one first.
  @discardableResult
  public func setImage(
    with request: ImageRequest?, placeholder: Image? = nil, failureImage: Image? = nil,
    displayOptions: ImageDisplayOptions = [],
    manager: ImageManager = .shared, operationKey: String? = nil,
    progress: (@MainActor (ImageTask.Progress) -> Void)? = nil,
    completion: @escaping @MainActor (Result<ImageResult, MagpieError>) -> Void
  ) -> ImageTask? {
    let state = target.imageBindingState
    return binder(forKey: operationKey).load(
      ImageLoadBinder.Load(
        request: request, url: request?.url, placeholder: placeholder,
        failureImage: failureImage ?? state.failureImage, options: displayOptions, manager: manager,
        progress: progress, completion: completion, previews: state.previewPolicy,
        sizesToDisplay: state.loadsAtDisplaySize))
  }

  /// ``setImage(with:placeholder:failureImage:options:displayOptions:manager:operationKey:progress:completion:)-(URL?,_,_,_,_,_,_,_,_)``
  /// without a completion.
  @discardableResult
  public func setImage(
    with url: URL?, placeholder: Image? = nil, failureImage: Image? = nil, options: ImageLoadingOptions = [],
    displayOptions: ImageDisplayOptions = [], manager: ImageManager = .shared, operationKey: String? = nil
  ) -> ImageTask? {
    setImage(
      with: url, placeholder: placeholder, failureImage: failureImage, options: options,
      displayOptions: displayOptions, manager: manager, operationKey: operationKey, progress: nil,
      completion: { _ in })
  }

  /// The request form without a completion.
  @discardableResult
  public func setImage(
    with request: ImageRequest?, placeholder: Image? = nil, failureImage: Image? = nil,
    displayOptions: ImageDisplayOptions = [],
    manager: ImageManager = .shared, operationKey: String? = nil
  ) -> ImageTask? {
    setImage(
      with: request, placeholder: placeholder, failureImage: failureImage, displayOptions: displayOptions,
      manager: manager, operationKey: operationKey, progress: nil, completion: { _ in })
  }

  /// Cancels the load under `operationKey` (the default key when `nil`);
  /// its completion reports it cancelled and the target is left as it is.
  public func cancelImageLoad(forKey operationKey: String? = nil) {
    binder(forKey: operationKey).cancel()
  }

  /// The URL last given to ``setImage(with:placeholder:failureImage:options:displayOptions:manager:operationKey:progress:completion:)-(URL?,_,_,_,_,_,_,_,_)``
  /// under the default key.
  public var currentImageURL: URL? { target.imageBindingState.url(forKey: Self.defaultKey) }

  /// Makes the failed `setImage` call under `operationKey` (the default key
  /// when `nil`) again, with its placeholder, failure image, options,
  /// progress and completion, with ``ImageLoadingOptions/retryFailed`` (the
  /// manager would otherwise fail a source that failed at once): what a
  /// tap on a failure image does. Whether
  /// the last load under the key had failed (a later load or a cancel
  /// forgets the failure).
  @discardableResult
  public func retryFailedLoad(forKey operationKey: String? = nil) -> Bool {
    let key = operationKey ?? Self.defaultKey
    guard var failed = target.imageBindingState.failedLoad(forKey: key) else { return false }
    // The manager remembers failed sources and fails them at once; a retry
    // asked for is tried again.
    failed.request?.options.insert(.retryFailed)
    binder(forKey: key).load(failed)
    return true
  }

  /// Whether the last load under the default key failed.
  public var hasFailedLoad: Bool { target.imageBindingState.hasFailedLoad(forKey: Self.defaultKey) }

  /// The image a failed load shows when its call names none.
  public var failureImage: Image? {
    get { target.imageBindingState.failureImage }
    nonmutating set { target.imageBindingState.failureImage = newValue }
  }

  /// The transition a loaded image from the disk or the network comes in with.
  public var transition: ImageTransition {
    get { target.imageBindingState.transition }
    nonmutating set { target.imageBindingState.transition = newValue }
  }

  /// Whether the target is on screen; an animation pauses while it is not
  /// and resumes where it was.
  public var isVisible: Bool {
    get { target.imageBindingState.isVisible }
    nonmutating set { target.imageBindingState.isVisible = newValue }
  }

  /// The animation now playing in the target under the default key.
  public var animationPlayer: AnimationPlayer? { target.imageBindingState.player(forKey: Self.defaultKey) }

  func binder(forKey operationKey: String?) -> ImageLoadBinder {
    let key = operationKey ?? Self.defaultKey
    let state = target.imageBindingState
    let play: @MainActor (Image) -> Void = { [weak target, weak state] image in
      guard let target, let state, let clock = target.animationClock else { return }
      let forwarder = FrameForwarder(target)
      let player: AnimationPlayer
      if let animation = image.animation, let lazy = try? animation.makePlayer(clock: clock, target: forwarder) {
        player = lazy
      } else {
        player = AnimationPlayer(image: image, clock: clock, target: forwarder)
      }
      state.play(player, through: forwarder, forKey: key)
    }
    let hooks = ImageLoadBinder.Hooks(
      showPlaceholder: { [weak target] in target?.displayPlaceholder($0) },
      showImage: { [weak target] image, transition in
        guard let target else { return }
        if case .custom(let custom) = transition {
          custom.show(target, image)
        } else {
          target.display(image, transition: transition)
        }
        target.imageDidChange()
      },
      play: play,
      displaySize: { [weak target] in
        guard let target, let size = target.displayPixelSize, size.width > 0, size.height > 0 else { return nil }
        return DisplaySizeBucket(containing: size, mode: target.displayContentMode)
      })
    return ImageLoadBinder(state: state, key: key, indicator: target.imageIndicator, hooks: hooks)
  }
}
