import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ImageDownloader {
  func start(_ ids: [Int]) {
    for id in ids {
      let request: URLRequest? = state.withLock { state in
        guard state.downloads[id] != nil else { return nil }
        state.downloads[id]!.started = clock.now
        return state.downloads[id]!.request
      }
      guard let request else { continue }
      let task = Task.detached { [self] in
        let result = await run(id, request)
        finish(id, result)
      }
      let cancelled = state.withLock { state -> Bool in
        guard state.downloads[id] != nil else { return true }
        state.downloads[id]!.task = task
        return false
      }
      // Every subscriber left between starting and recording the task.
      if cancelled { task.cancel() }
    }
  }

  private func run(_ id: Int, _ request: URLRequest) async -> Result<Response, MagpieError> {
    let begun = clock.now
    var attempt = 0
    while true {
      attempt += 1
      let outcome = await transfer(id, request)
      switch outcome {
      case .success(let (data, response)):
        let metrics = state.withLock { state -> Metrics in
          let download = state.downloads[id]
          return Metrics(
            queueWait: (download?.started ?? begun) - (download?.enqueued ?? begun), transfer: clock.now - begun,
            attempts: attempt, bytes: data.count)
        }
        return .success(Response(data: data, response: response, metrics: metrics))
      case .failure(let error):
        if Task.isCancelled { return .failure(MagpieError(.cancelled, "the download was cancelled")) }
        guard let wait = configuration.retryPolicy.delay(afterAttempt: attempt, error: error) else {
          return .failure(error)
        }
        do {
          try await configuration.sleep(wait)
        } catch {
          return .failure(MagpieError(.cancelled, "the download was cancelled while waiting to retry"))
        }
      }
    }
  }

  /// One attempt: the response and the whole body, with progress to every
  /// subscriber. Without a subscriber that wants partial data (progressive
  /// decoding) the loader collects the body itself
  /// (``DataLoading/data(for:progress:)``: ``CurlDataLoader`` then wakes
  /// this task once for a short body, not once a chunk).
  private func transfer(_ id: Int, _ request: URLRequest) async -> Result<(Data, HTTPURLResponse), MagpieError> {
    let wantsPartialData = state.withLock { state in
      state.downloads[id]?.subscribers.values.contains { $0.handlers.data != nil } ?? false
    }
    do throws(MagpieError) {
      guard wantsPartialData else {
        return .success(
          try await configuration.dataLoader.data(for: request) { [self] received, expected in
            for handler in progressHandlers(id, received: received, expected: expected) {
              handler.progress?(received, expected)
            }
          })
      }
      var iterator = configuration.dataLoader.load(request).makeAsyncIterator()
      return .success(
        try await DataLoadingEvents.collect({ try await iterator.next() }) { [self] body, received, expected in
          for handler in progressHandlers(id, received: received, expected: expected) {
            handler.progress?(received, expected)
            handler.data?(body)
          }
        })
    } catch {
      return .failure(Task.isCancelled ? MagpieError(.cancelled, "the download was cancelled") : error)
    }
  }

  /// Records `id`'s progress; the handlers of its subscribers.
  private func progressHandlers(_ id: Int, received: Int64, expected: Int64?) -> [Handlers] {
    state.withLock { state -> [Handlers] in
      guard state.downloads[id] != nil else { return [] }
      state.downloads[id]!.received = received
      state.downloads[id]!.expected = expected
      return state.downloads[id]!.subscribers.values.map(\.handlers)
    }
  }

  private func finish(_ id: Int, _ result: Result<Response, MagpieError>) {
    let (subscribers, toStart) = state.withLock { state -> ([Subscriber], [Int]) in
      guard let download = state.downloads.removeValue(forKey: id) else { return ([], []) }
      if state.byKey[download.key] == id { state.byKey[download.key] = nil }
      return (Array(download.subscribers.values), state.queue.remove(id))
    }
    start(toStart)
    for subscriber in subscribers { subscriber.handlers.completion(result) }
  }
}
