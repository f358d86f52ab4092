extension ImageLoadBinder {
  /// Loads the target's image again at its display size when the target
  /// grew past the size its image was loaded for (an image loaded at full
  /// size, or still loading, is left as it is); whether it did. The reload
  /// keeps what is shown until its image replaces it at once: no
  /// placeholder, spinner, transition or callbacks of the first call.
  @discardableResult
  func reloadIfGrown() -> Bool {
    guard !state.isLoading(forKey: key), let sized = state.sizedLoad(forKey: key), let held = sized.bucket,
      let now = hooks.displaySize(), held.isSmaller(than: now)
    else { return false }
    var reload = sized.load
    reload.isResizeReload = true
    reload.completion = nil
    reload.progress = nil
    load(reload)
    return true
  }
}
