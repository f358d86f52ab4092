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

  /// One `setImage` call: what to load and how to show it, kept after a
  /// failure so that the same call can be made again.
  struct Load {
    /// What to load; `nil` fails at once.
    var request: ImageRequest?
    /// The URL the target remembers.
    var url: URL?
    /// Shown while loading (after a failure only, with ``ImageDisplayOptions/delayPlaceholder``).
    var placeholder: Image?
    /// Shown when the load fails.
    var failureImage: Image?
    /// How to show it.
    var options: ImageDisplayOptions
    /// The manager that loads it.
    var manager: ImageManager
    /// Progress as it downloads.
    var progress: (@MainActor (ImageTask.Progress) -> Void)?
    /// The result.
    var completion: (@MainActor (Result<ImageResult, MagpieError>) -> Void)?
  }

  /// ``load(_:)`` of a ``Load`` made of the arguments.
  @discardableResult
  func load(
    _ request: ImageRequest?, url: URL?, placeholder: Image?, failureImage: Image? = nil,
    options: ImageDisplayOptions, manager: ImageManager, progress: (@MainActor (ImageTask.Progress) -> Void)?,
    completion: (@MainActor (Result<ImageResult, MagpieError>) -> Void)?
  ) -> ImageTask? {
    load(
      Load(
        request: request, url: url, placeholder: placeholder, failureImage: failureImage, options: options,
        manager: manager, progress: progress, completion: completion))
  }

  /// Loads `load.request` (or fails at once for `nil`), as the target's
  /// `setImage` does. A memory hit shows before this returns (no
  /// placeholder, spinner or transition) and returns no task. A failure
  /// shows the failure image through the transition (else the delayed
  /// placeholder) and is kept for ``ImageBindingState/failedLoad(forKey:)``.
  @discardableResult
  func load(_ load: Load) -> ImageTask? {
    cancel()
    let token = state.begin(url: load.url, forKey: key)
    guard let request = load.request else {
      _ = state.finish(token, forKey: key)
      if let failure = load.failureImage {
        hooks.showImage(failure, .none)
      } else {
        hooks.showPlaceholder(load.placeholder)
      }
      load.completion?(.failure(MagpieError(.invalidArgument, "a nil URL was given, so there is nothing to load")))
      return nil
    }
    if let hit = load.manager.memoryHit(for: request) {
      _ = state.finish(token, forKey: key)
      Self.show(.success(hit), of: load, hooks: hooks, transition: state.transition)
      load.completion?(.success(hit))
      return nil
    }
    if !load.options.contains(.delayPlaceholder) { hooks.showPlaceholder(load.placeholder) }
    indicator?.startAnimating()
    // Weakly: an unfinished load must not keep a dropped target's state
    // (and so the target) alive; the hooks hold the target weakly too.
    let hooks = hooks
    let indicator = indicator
    let key = key
    let deliver: @MainActor (Result<ImageResult, MagpieError>) -> Void = { [weak state] result in
      guard let state, state.finish(token, forKey: key) == .show else {
        load.completion?(.failure(MagpieError(.cancelled, "the load was replaced or cancelled before it finished")))
        return
      }
      indicator?.stopAnimating()
      if case .failure(let error) = result, error.code != .cancelled { state.keepFailedLoad(load, forKey: key) }
      Self.show(result, of: load, hooks: hooks, transition: state.transition)
      load.completion?(result)
    }
    let task = load.manager.loadImageOnMainActor(with: request, progress: load.progress, completion: deliver)
    if state.isCurrent(token, forKey: key) { state.setTask(task, forKey: key) }
    return task
  }

  private static func show(
    _ result: Result<ImageResult, MagpieError>, of load: Load, hooks: Hooks, transition: ImageTransition
  ) {
    switch result {
    case .success(let loaded):
      guard !load.options.contains(.avoidAutoSetImage) else { return }
      let fromMemory = loaded.cacheType == .memory && !load.options.contains(.forceTransition)
      hooks.showImage(loaded.image, fromMemory ? .none : transition)
      if loaded.image.isAnimated, !load.options.contains(.doNotAnimate) { hooks.play?(loaded.image) }
    case .failure(let error):
      // A task cancelled by its owner is no failure to show.
      if error.code != .cancelled, let failure = load.failureImage {
        hooks.showImage(failure, transition)
      } else if load.options.contains(.delayPlaceholder) {
        hooks.showPlaceholder(load.placeholder)
      }
    }
  }
}
