extension ImageBinding {
  /// Whether loads show progressive previews (default
  /// ``ImagePreviewPolicy/incremental``: each new scan of a progressive
  /// JPEG, without a transition).
  public var previewPolicy: ImagePreviewPolicy {
    get { target.imageBindingState.previewPolicy }
    nonmutating set { target.imageBindingState.previewPolicy = newValue }
  }

  /// Whether loads ask for the target's size: a request that names no
  /// size or processors of its own gets the target's
  /// ``ImageDisplayTarget/displayPixelSize``, rounded down to a multiple
  /// of 8 pixels on each axis, as a fitting
  /// ``ImageProcessors/Downsampling`` or a filling
  /// ``ImageProcessors/Resizing`` (as ``ImageDisplayTarget/displayContentMode``
  /// says). A 240x180 cell thus decodes a large photo at 240x176, and
  /// cells a few pixels apart share one cached image. A target whose size
  /// is not known yet loads at full size. Off for targets in general; the
  /// GTK views turn it on.
  public var loadsAtDisplaySize: Bool {
    get { target.imageBindingState.loadsAtDisplaySize }
    nonmutating set { target.imageBindingState.loadsAtDisplaySize = newValue }
  }

  /// Tells the binding that the target's display size changed: when it
  /// grew past the size its image under `operationKey` was loaded for, the
  /// image loads again at the new size (once: a shrink, or growth within
  /// the 8-pixel rounding, loads nothing). The reload keeps the image
  /// shown until the larger one replaces it at once, and calls no
  /// completion. Whether a reload started.
  @discardableResult
  public func displaySizeDidChange(forKey operationKey: String? = nil) -> Bool {
    guard loadsAtDisplaySize else { return false }
    return binder(forKey: operationKey).reloadIfGrown()
  }

  /// How animations play in the target: forward (the default), reverse or
  /// bounce. Set before a load, the animation starts in that mode; set
  /// while one plays, it goes on from the frame shown.
  public var playbackMode: PlaybackMode {
    get { target.imageBindingState.playbackMode }
    nonmutating set { target.imageBindingState.playbackMode = newValue }
  }

  /// How fast animations play in the target (1, the default, plays their
  /// own delays; 2 twice as fast), now and for later loads.
  public var playbackRate: Double {
    get { target.imageBindingState.playbackRate }
    nonmutating set { target.imageBindingState.playbackRate = newValue }
  }
}
