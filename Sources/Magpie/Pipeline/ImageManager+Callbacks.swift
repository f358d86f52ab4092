extension ImageManager {
  /// Starts loading `request` and calls back on `callbackQueue`: progress as
  /// bytes arrive, partial images of progressive JPEGs (with
  /// ``ImageLoadingOptions/progressiveLoad``), then the completion exactly
  /// once. A memory-cache hit completes before this returns when
  /// `callbackQueue` is `.immediate`. The task's cancellation follows the
  /// rule of ``imageTask(with:)``.
  @discardableResult
  public func loadImage(
    with request: ImageRequest, callbackQueue: CallbackQueue = .main,
    progress: (@Sendable (ImageTask.Progress) -> Void)? = nil, partialImage: (@Sendable (Image) -> Void)? = nil,
    completion: @escaping @Sendable (Result<ImageResult, MagpieError>) -> Void
  ) -> ImageTask {
    // Without a delegate the request is used as given: no copy of it.
    if delegate != nil {
      return load(
        prepared(request), callbackQueue: callbackQueue, progress: progress, partialImage: partialImage,
        completion: completion)
    }
    return load(
      request, callbackQueue: callbackQueue, progress: progress, partialImage: partialImage, completion: completion)
  }

  private func load(
    _ request: ImageRequest, callbackQueue: CallbackQueue, progress: (@Sendable (ImageTask.Progress) -> Void)?,
    partialImage: (@Sendable (Image) -> Void)?,
    completion: @escaping @Sendable (Result<ImageResult, MagpieError>) -> Void
  ) -> ImageTask {
    let task = makeTask(request)
    let memory = memoryLookup(for: request)
    if let hit = memory.hit {
      guard let result = task.finish(with: .success(hit)) else { return task }
      // Called directly when immediate: no closure to allocate on the hot path.
      if case .immediate = callbackQueue { completion(result) } else { callbackQueue.run { completion(result) } }
      return task
    }
    var progressOnQueue: (@Sendable (ImageTask.Progress) -> Void)?
    if let progress {
      progressOnQueue = { @Sendable value in callbackQueue.run { progress(value) } }
    }
    var partialOnQueue: (@Sendable (Image) -> Void)?
    if let partialImage {
      partialOnQueue = { @Sendable image in callbackQueue.run { partialImage(image) } }
    }
    let completionOnQueue: @Sendable (Result<ImageResult, MagpieError>) -> Void = { result in
      callbackQueue.run { completion(result) }
    }
    start(
      task, cacheKey: memory.key, progress: progressOnQueue, partialImage: partialOnQueue,
      completion: completionOnQueue)
    return task
  }

  /// ``loadImage(with:callbackQueue:progress:partialImage:completion:)``
  /// for main-actor code: the closures run on the main actor (the main
  /// queue, ``CallbackQueue/main``), so they may touch views and other
  /// main-actor state without being `@Sendable`. Each callback is one
  /// block on the main queue: no task is made per event.
  @MainActor @discardableResult
  public func loadImageOnMainActor(
    with request: ImageRequest, progress: (@MainActor (ImageTask.Progress) -> Void)? = nil,
    partialImage: (@MainActor (Image) -> Void)? = nil,
    completion: @escaping @MainActor (Result<ImageResult, MagpieError>) -> Void
  ) -> ImageTask {
    // The main queue is the main actor's executor on Linux, as on Apple
    // platforms: what lets `assumeIsolated` call the main-actor closures.
    var progressOnMain: (@Sendable (ImageTask.Progress) -> Void)?
    if let progress {
      progressOnMain = { value in MainActor.assumeIsolated { progress(value) } }
    }
    var partialOnMain: (@Sendable (Image) -> Void)?
    if let partialImage {
      partialOnMain = { image in MainActor.assumeIsolated { partialImage(image) } }
    }
    return loadImage(with: request, callbackQueue: .main, progress: progressOnMain, partialImage: partialOnMain) {
      result in
      MainActor.assumeIsolated { completion(result) }
    }
  }
}
