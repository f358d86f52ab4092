import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turns a transfer's events, as the loader's thread hands them over, into
/// its response and whole body, reporting progress on the way: the sink of
/// a load queued by ``QueueingDataLoader/enqueueLoad(of:in:progress:completion:)``
/// (the libcurl thread's, or the URLSession delegate queue's).
final class BodySink: Sendable {
  private struct State {
    var response: HTTPURLResponse?
    var body = Data()
  }

  private let state = Lock(State())
  private let progress: @Sendable (Int64, Int64?) -> Void

  /// A sink reporting to `progress`.
  init(progress: @escaping @Sendable (Int64, Int64?) -> Void) {
    self.progress = progress
  }

  /// Takes one event.
  func take(_ event: DataLoadingEvent) {
    switch event {
    case .response(let head):
      state.withLock { state in
        state.response = head
        state.body = Data()
      }
    case .data(let chunk, let received, let expected):
      // Progress alone (no bytes) takes no lock.
      if !chunk.isEmpty {
        state.withLock { state in
          let announced = state.response?.expectedContentLength ?? -1
          DataLoadingEvents.append(chunk, to: &state.body, announced: announced)
        }
      }
      progress(received, expected)
    }
  }

  /// The outcome once the transfer ended, with `error` or cleanly. A
  /// failure after some of the body keeps it (``PartialBody``), for a
  /// resume.
  func finish(_ error: MagpieError?) -> Result<(Data, HTTPURLResponse), MagpieError> {
    let (body, response) = state.withLock { state in
      defer { state.body = Data() }
      return (state.body, state.response)
    }
    if let error { return .failure(PartialBody.attach(to: error, response: response, body: body)) }
    guard let response else {
      return .failure(MagpieError(.network, "the connection ended before a response arrived"))
    }
    return .success((body, response))
  }
}
