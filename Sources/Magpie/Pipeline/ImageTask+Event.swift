extension ImageTask {
  /// Something that happened to a task, in the order it happened.
  public enum Event: Sendable {
    /// More bytes arrived.
    case progress(ImageTask.Progress)
    /// A preview of a progressive JPEG (with ``ImageLoadingOptions/progressiveLoad``).
    case partialImage(Image)
    /// The task's outcome; always the last event.
    case finished(Result<ImageResult, MagpieError>)
  }

  /// How many events a slow reader's stream holds; older ones are dropped
  /// first, so ``Event/finished(_:)``, always the last, is never lost.
  static let eventBuffer = 16

  /// The task's events from now on, ending after ``Event/finished(_:)``.
  ///
  /// Each read makes a new stream. One made after the task finished holds
  /// just `finished`; earlier progress and previews are not replayed. A
  /// reader that falls more than a few events behind loses the oldest ones
  /// (never `finished`). Reading it makes a progressive load decode
  /// previews even without a partial-image callback.
  ///
  /// ```swift
  /// for await event in task.events {
  ///   if case .finished(let result) = event { show(result) }
  /// }
  /// ```
  public var events: AsyncStream<Event> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Event.self, bufferingPolicy: .bufferingNewest(Self.eventBuffer))
    addListener(continuation)
    return stream
  }

  /// The task's progress values from now on, ending when it finishes (a
  /// view of ``events``; ``progress`` is the latest value).
  public var progressUpdates: some AsyncSequence<Progress, Never> {
    events.compactMap { event -> Progress? in
      if case .progress(let progress) = event { return progress }
      return nil
    }
  }

  /// The task's result, waiting for it if the task has not finished (and
  /// at once if it has). Cancelling the Swift task that awaits this
  /// cancels the image task, as ``cancel()`` does (the rule of
  /// ``ImageManager/imageTask(with:)``): it then throws
  /// ``MagpieError/Code/cancelled``.
  public var response: ImageResult {
    get async throws(MagpieError) {
      if let finished = outcome { return try finished.get() }
      let result = await withTaskCancellationHandler {
        await waitForResult()
      } onCancel: {
        cancel()
      }
      return try result.get()
    }
  }

  /// The task's image: ``response``'s, under the same rule.
  public var image: Image {
    get async throws(MagpieError) {
      if let finished = finishedImage { return try finished.get() }
      return try await response.image
    }
  }
}
