import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ImageDownloader {
  /// A place in the line for a slot at the stage's priority, following its
  /// changes.
  func slot(for stage: PipelineStage<Response>) -> TransferQueue.Slot {
    let priority = stage.priority
    let slot = TransferQueue.Slot(queue: queue, priority: priority)
    stage.wait(on: .line { slot.setPriority($0) }, startedAt: priority)
    return slot
  }

  /// A place in the line, joined now.
  func joinLine(_ stage: PipelineStage<Response>) -> TransferQueue.Slot {
    let slot = slot(for: stage)
    slot.enqueue()
    return slot
  }

  /// The download stage's work on a task, for a loader that does not start
  /// queued transfers itself (or when a subscriber wants partial data):
  /// attempts until one succeeds or the retry policy gives up.
  func run(
    _ request: URLRequest, first: TransferQueue.Slot, stage: PipelineStage<Response>
  ) async throws(MagpieError) -> Response {
    let begun = clock.now
    var slot = first
    var number = 1
    while true {
      do throws(MagpieError) {
        let (data, response) = try await transfer(request, slot: slot, stage: stage)
        return finishedResponse(data, response, attempts: number, queueWait: first.queueWait, begun: begun)
      } catch {
        if Task.isCancelled { throw MagpieError(.cancelled, "the download was cancelled") }
        guard let wait = configuration.retryPolicy.delay(afterAttempt: number, error: error) else { throw error }
        do {
          try await configuration.sleep(wait)
        } catch {
          throw MagpieError(.cancelled, "the download was cancelled while waiting to retry")
        }
        number += 1
        slot = joinLine(stage)
      }
    }
  }

  /// A finished transfer's response, with the time and attempts it took.
  func finishedResponse(
    _ data: Data, _ response: HTTPURLResponse, attempts: Int, queueWait: Duration, begun: ContinuousClock.Instant
  ) -> Response {
    let metrics = Metrics(
      queueWait: queueWait, transfer: clock.now - begun - queueWait, attempts: attempts, bytes: data.count)
    return Response(data: data, response: response, metrics: metrics)
  }

  /// One attempt on the stage's task: the response and the whole body,
  /// with progress (and the bytes so far, when a subscriber wants them)
  /// to every subscriber.
  private func transfer(
    _ request: URLRequest, slot: TransferQueue.Slot, stage: PipelineStage<Response>
  ) async throws(MagpieError) -> (Data, HTTPURLResponse) {
    defer { slot.release() }
    try await slot.waitForTurn()
    // Cancelled: the slot goes to the next transfer now, not when the
    // loader has wound down.
    let result = await withTaskCancellationHandler { () async -> Result<(Data, HTTPURLResponse), MagpieError> in
      do throws(MagpieError) {
        guard stage.wantsData else {
          return .success(
            try await configuration.dataLoader.data(for: request) { received, expected in
              stage.send(.progress(received: received, expected: expected))
            })
        }
        var iterator = configuration.dataLoader.load(request).makeAsyncIterator()
        return .success(
          try await DataLoadingEvents.collect({ try await iterator.next() }) { body, received, expected in
            stage.send(.progress(received: received, expected: expected))
            stage.send(.data(body))
          })
      } catch {
        return .failure(error)
      }
    } onCancel: {
      slot.release()
    }
    return try result.get()
  }
}
