extension ImageManager {
  /// ``loadImage(with:callbackQueue:progress:partialImage:completion:)``
  /// for main-actor code: the closures run on the main actor (through
  /// ``CallbackQueue/mainActor``), so they may touch views and other
  /// main-actor state without being `@Sendable`.
  @MainActor @discardableResult
  public func loadImageOnMainActor(
    with request: ImageRequest, progress: (@MainActor (ImageTask.Progress) -> Void)? = nil,
    partialImage: (@MainActor (Image) -> Void)? = nil,
    completion: @escaping @MainActor (Result<ImageResult, MagpieError>) -> Void
  ) -> ImageTask {
    // `.mainActor` runs each callback on the main actor, which is what
    // lets `assumeIsolated` call the main-actor closures.
    var progressOnMain: (@Sendable (ImageTask.Progress) -> Void)?
    if let progress {
      progressOnMain = { value in MainActor.assumeIsolated { progress(value) } }
    }
    var partialOnMain: (@Sendable (Image) -> Void)?
    if let partialImage {
      partialOnMain = { image in MainActor.assumeIsolated { partialImage(image) } }
    }
    return loadImage(
      with: request, callbackQueue: .mainActor, progress: progressOnMain, partialImage: partialOnMain
    ) { result in
      MainActor.assumeIsolated { completion(result) }
    }
  }
}
