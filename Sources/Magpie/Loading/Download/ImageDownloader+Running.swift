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

  /// A finished transfer's response, with the time and attempts it took.
  func finishedResponse(
    _ data: Data, _ response: HTTPURLResponse, attempts: Int, queueWait: Duration, begun: ContinuousClock.Instant
  ) -> Response {
    let metrics = Metrics(
      queueWait: queueWait, transfer: clock.now - begun - queueWait, attempts: attempts, bytes: data.count)
    return Response(data: data, response: response, metrics: metrics)
  }

  /// One attempt on a task of its own, for a loader that does not start
  /// queued transfers itself (or when a subscriber wants partial data):
  /// waits for the slot, then the response and the whole body, with
  /// progress (and the bytes so far, when a subscriber wants them) to
  /// every subscriber. Cancelling the task ends it.
  func transfer(
    _ request: URLRequest, slot: TransferQueue.Slot, stage: PipelineStage<Response>
  ) async -> Result<(Data, HTTPURLResponse), MagpieError> {
    defer { slot.release() }
    do throws(MagpieError) {
      try await slot.waitForTurn()
    } catch {
      return .failure(error)
    }
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
    return result
  }
}
