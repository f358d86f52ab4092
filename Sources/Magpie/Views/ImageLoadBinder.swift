import Foundation

/// The one implementation behind every `setImage` of image views and
/// buttons: cancel what ran under the key, show the placeholder, load,
/// and show the result only if this load is still the current one.
@MainActor
struct ImageLoadBinder {
  /// How the kind of target shows things.
  struct Hooks {
    /// Shows the placeholder.
    var showPlaceholder: @MainActor (Image?) -> Void
    /// Shows the loaded image with a transition.
    var showImage: @MainActor (Image, ImageTransition) -> Void
    /// Plays an animated image after it is shown; `nil` when the target
    /// does not play animations.
    var play: (@MainActor (Image) -> Void)?
  }

  /// The target's state.
  let state: ImageBindingState
  /// The operation key.
  let key: String
  /// The target's spinner.
  let indicator: (any ImageIndicator)?
  /// How the target shows things.
  let hooks: Hooks

  /// Cancels the load under the key; stops the spinner if one ran.
  func cancel() {
    if state.cancel(forKey: key) { indicator?.stopAnimating() }
  }

  /// Loads `request` (or shows the placeholder and fails for `nil`), as
  /// the target's `setImage` does. A memory hit shows before this returns
  /// (no placeholder, spinner or transition) and returns no task.
  @discardableResult
  func load(
    _ request: ImageRequest?, url: URL?, placeholder: Image?, options: ImageDisplayOptions, manager: ImageManager,
    progress: (@MainActor (ImageTask.Progress) -> Void)?,
    completion: (@MainActor (Result<ImageResult, MagpieError>) -> Void)?
  ) -> ImageTask? {
    cancel()
    let token = state.begin(url: url, forKey: key)
    guard let request else {
      _ = state.finish(token, forKey: key)
      hooks.showPlaceholder(placeholder)
      completion?(.failure(MagpieError(.invalidArgument, "a nil URL was given, so there is nothing to load")))
      return nil
    }
    if let hit = manager.memoryHit(for: request) {
      _ = state.finish(token, forKey: key)
      Self.show(
        .success(hit), placeholder: placeholder, options: options, hooks: hooks, transition: state.transition)
      completion?(.success(hit))
      return nil
    }
    if !options.contains(.delayPlaceholder) { hooks.showPlaceholder(placeholder) }
    indicator?.startAnimating()
    // Weakly: an unfinished load must not keep a dropped target's state
    // (and so the target) alive; the hooks hold the target weakly too.
    let hooks = hooks
    let indicator = indicator
    let key = key
    let deliver: @MainActor (Result<ImageResult, MagpieError>) -> Void = { [weak state] result in
      guard let state, state.finish(token, forKey: key) == .show else {
        completion?(.failure(MagpieError(.cancelled, "the load was replaced or cancelled before it finished")))
        return
      }
      indicator?.stopAnimating()
      Self.show(result, placeholder: placeholder, options: options, hooks: hooks, transition: state.transition)
      completion?(result)
    }
    let task = manager.loadImageOnMainActor(with: request, progress: progress, completion: deliver)
    if state.isCurrent(token, forKey: key) { state.setTask(task, forKey: key) }
    return task
  }

  private static func show(
    _ result: Result<ImageResult, MagpieError>, placeholder: Image?, options: ImageDisplayOptions, hooks: Hooks,
    transition: ImageTransition
  ) {
    switch result {
    case .success(let loaded):
      guard !options.contains(.avoidAutoSetImage) else { return }
      let fromMemory = loaded.cacheType == .memory && !options.contains(.forceTransition)
      hooks.showImage(loaded.image, fromMemory ? .none : transition)
      if loaded.image.isAnimated, !options.contains(.doNotAnimate) { hooks.play?(loaded.image) }
    case .failure:
      if options.contains(.delayPlaceholder) { hooks.showPlaceholder(placeholder) }
    }
  }
}
