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
    /// The size a size-aware load asks for now; `nil` loads at full size.
    var displaySize: @MainActor () -> DisplaySizeBucket? = { nil }
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
    /// Whether previews show while it downloads.
    var previews: ImagePreviewPolicy = .disabled
    /// Whether it may ask for the target's display size.
    var sizesToDisplay = false
    /// A reload at a larger size of what the target shows: no placeholder,
    /// spinner, transition or callbacks.
    var isResizeReload = false
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
    guard var request = load.request else {
      _ = state.finish(token, forKey: key)
      if let failure = load.failureImage {
        hooks.showImage(failure, .none)
      } else {
        hooks.showPlaceholder(load.placeholder)
      }
      load.completion?(.failure(MagpieError(.invalidArgument, "a nil URL was given, so there is nothing to load")))
      return nil
    }
    let bucket = sized(&request, for: load)
    state.keepSizedLoad(load, bucket: bucket, forKey: key)
    if let hit = load.manager.memoryHit(for: request) {
      _ = state.finish(token, forKey: key)
      Self.show(.success(hit), of: load, hooks: hooks, transition: state.transition)
      load.completion?(.success(hit))
      return nil
    }
    let indicator = load.isResizeReload ? nil : indicator
    if !load.options.contains(.delayPlaceholder), !load.isResizeReload { hooks.showPlaceholder(load.placeholder) }
    indicator?.startAnimating()
    // Weakly: an unfinished load must not keep a dropped target's state
    // (and so the target) alive; the hooks hold the target weakly too.
    let hooks = hooks
    let key = key
    let deliver: @MainActor (Result<ImageResult, MagpieError>) -> Void = { [weak state] result in
      guard let state, state.finish(token, forKey: key) == .show else {
        load.completion?(.failure(MagpieError(.cancelled, "the load was replaced or cancelled before it finished")))
        return
      }
      indicator?.stopAnimating()
      if case .failure(let error) = result, error.code != .cancelled, !load.isResizeReload {
        state.keepFailedLoad(load, forKey: key)
      }
      Self.show(result, of: load, hooks: hooks, transition: load.isResizeReload ? .none : state.transition)
      load.completion?(result)
      // The target may have grown while this loaded.
      if case .success = result {
        ImageLoadBinder(state: state, key: key, indicator: nil, hooks: hooks).reloadIfGrown()
      }
    }
    // Progress only when someone shows it: each report is a hop to the
    // main actor.
    var progress: (@MainActor (ImageTask.Progress) -> Void)?
    if indicator != nil || load.progress != nil {
      progress = { [weak state] value in
        guard let state, state.isCurrent(token, forKey: key) else { return }
        indicator?.setProgress(value)
        load.progress?(value)
      }
    }
    // Previews come without a transition, and never after the final image.
    var preview: (@MainActor (Image) -> Void)?
    if load.previews != .disabled, !load.isResizeReload, !load.options.contains(.avoidAutoSetImage) {
      request.options.insert(load.previews == .thumbnail ? .embeddedThumbnailPreview : .progressiveLoad)
      preview = { [weak state] image in
        guard let state, state.isCurrent(token, forKey: key) else { return }
        hooks.showImage(image, .none)
      }
    }
    let task = load.manager.loadImageOnMainActor(
      with: request, progress: progress, partialImage: preview, completion: deliver)
    if state.isCurrent(token, forKey: key) { state.setTask(task, forKey: key) }
    return task
  }

  /// Adds the target's display size to `request` when `load` may ask for
  /// it, the target knows it, and the request names no size or processors
  /// of its own; the bucket asked for.
  private func sized(_ request: inout ImageRequest, for load: Load) -> DisplaySizeBucket? {
    guard load.sizesToDisplay, request.targetSize == nil, request.processors.isEmpty,
      let bucket = hooks.displaySize()
    else { return nil }
    request.processors = [bucket.processor]
    return bucket
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
      // A task cancelled by its owner is no failure to show, and a failed
      // reload at a larger size leaves the smaller image.
      if load.isResizeReload { return }
      if error.code != .cancelled, let failure = load.failureImage {
        hooks.showImage(failure, transition)
      } else if load.options.contains(.delayPlaceholder) {
        hooks.showPlaceholder(load.placeholder)
      }
    }
  }
}
