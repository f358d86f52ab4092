import Foundation

extension ImageBinding where Target: HighlightableImageTarget {
  /// The operation key of the highlighted image.
  public static var highlightedKey: String { defaultKey + ".highlighted" }

  /// Loads `url` as the target's highlighted image, under its own key (a
  /// load of the normal image does not cancel it), without a placeholder.
  @discardableResult
  public func setHighlightedImage(
    with url: URL?, options: ImageLoadingOptions = [], displayOptions: ImageDisplayOptions = [],
    manager: ImageManager = .shared,
    completion: (@MainActor (Result<ImageResult, MagpieError>) -> Void)? = nil
  ) -> ImageTask? {
    highlightedBinder().load(
      url.map { ImageRequest(url: $0, options: options) }, url: url, placeholder: nil, options: displayOptions,
      manager: manager, progress: nil, completion: completion)
  }

  /// The URL last given for the highlighted image.
  public var highlightedImageURL: URL? { target.imageBindingState.url(forKey: Self.highlightedKey) }

  /// Cancels the highlighted image's load.
  public func cancelHighlightedImageLoad() { highlightedBinder().cancel() }

  private func highlightedBinder() -> ImageLoadBinder {
    return ImageLoadBinder(
      state: target.imageBindingState, key: Self.highlightedKey, indicator: nil,
      hooks: ImageLoadBinder.Hooks(
        showPlaceholder: { _ in }, showImage: { [weak target] image, _ in target?.displayHighlighted(image) }, play: nil
      ))
  }
}
