/// How a whole-body ``CurlDataLoader`` load without progress reaches its
/// caller: the libcurl thread gathers the transfer's events (its head and
/// its body) and resumes the waiting task once, at the end. No stream, no
/// iterator, one wake-up per load.
final class CurlWholeBodyDelivery: Sendable {
  private struct State {
    var continuation: UnsafeContinuation<[CurlEvent], any Error>?
    var events: [CurlEvent] = []
    /// The ending, when it came before the caller waited.
    var ending: Result<[CurlEvent], MagpieError>?
    var ended = false
  }

  private let state = Lock(State())

  /// Creates a delivery nobody waits on yet.
  init() {}

  /// Waits with `continuation`, which is resumed exactly once: at once when
  /// the transfer already ended.
  func wait(_ continuation: UnsafeContinuation<[CurlEvent], any Error>) {
    let ending = state.withLock { state -> Result<[CurlEvent], MagpieError>? in
      guard let ending = state.ending else {
        state.continuation = continuation
        return nil
      }
      state.ending = nil
      return ending
    }
    if let ending { continuation.resume(with: ending.mapError { $0 as any Error }) }
  }

  /// Keeps `events` for the end (libcurl thread).
  func append(_ events: [CurlEvent]) {
    state.withLock { state in
      guard !state.ended else { return }
      state.events += events
    }
  }

  /// Ends the load: with the events kept, or `error`. Later calls do
  /// nothing, as a finished stream ignores a second finish.
  func finish(_ error: MagpieError?) {
    let resumption = state.withLock {
      state -> (UnsafeContinuation<[CurlEvent], any Error>, Result<[CurlEvent], MagpieError>)? in
      guard !state.ended else { return nil }
      state.ended = true
      let ending: Result<[CurlEvent], MagpieError> = error.map { .failure($0) } ?? .success(state.events)
      state.events = []
      guard let continuation = state.continuation else {
        state.ending = ending
        return nil
      }
      state.continuation = nil
      return (continuation, ending)
    }
    if let (continuation, ending) = resumption { continuation.resume(with: ending.mapError { $0 as any Error }) }
  }
}
