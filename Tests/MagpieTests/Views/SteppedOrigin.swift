import Foundation

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A data loader that answers each request after a random number of steps
/// of a clock the test advances (the origin's random delays, without
/// sleeping), and records what happened to every request: answered in
/// full (with the event number it was answered at) or cancelled.
final class SteppedOrigin: DataLoading, Sendable {
  /// What happened to one request.
  struct Record: Sendable {
    var url: URL
    var answeredAt: Int?
    var cancelled = false
  }

  private struct Pending {
    var id: Int
    var due: Int
    var continuation: AsyncThrowingStream<DataLoadingEvent, any Error>.Continuation
  }

  private struct State {
    var step = 0
    var events = 0
    var random: SplitMix64
    var pending: [Pending] = []
    var records: [Record] = []
  }

  private let state: Lock<State>
  private let bodies: @Sendable (URL) -> Data

  /// An origin answering with `bodies(url)` after 0 to `maxDelay` steps
  /// drawn from `seed`.
  init(seed: UInt64, bodies: @escaping @Sendable (URL) -> Data) {
    state = Lock(State(random: SplitMix64(seed: seed)))
    self.bodies = bodies
  }

  /// Every request so far.
  var records: [Record] { state.withLock { $0.records } }
  /// Requests not answered or cancelled yet.
  var pendingCount: Int { state.withLock { $0.pending.count } }
  /// The number of the last thing that happened (a request, an answer or
  /// a cancel), to compare answers with.
  var eventNumber: Int { state.withLock { $0.events } }

  func load(_ request: URLRequest) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
    let url = request.url!
    return AsyncThrowingStream { continuation in
      let id = state.withLock { state -> Int in
        state.events += 1
        state.records.append(Record(url: url))
        let delay = Int(state.random.next() % 6)
        state.pending.append(Pending(id: state.records.count - 1, due: state.step + delay, continuation: continuation))
        return state.records.count - 1
      }
      continuation.onTermination = { [weak self] termination in
        guard case .cancelled = termination else { return }
        self?.state.withLock { state in
          state.events += 1
          state.records[id].cancelled = true
          state.pending.removeAll { $0.id == id }
        }
      }
    }
  }

  /// Moves the clock one step and answers every request now due.
  func advance() {
    let due = state.withLock { state -> [(Pending, Int)] in
      state.step += 1
      let step = state.step
      let ready = state.pending.filter { $0.due <= step }
      state.pending.removeAll { $0.due <= step }
      return ready.map { pending in
        state.events += 1
        state.records[pending.id].answeredAt = state.events
        return (pending, state.events)
      }
    }
    for (pending, _) in due {
      let url = state.withLock { $0.records[pending.id].url }
      let body = bodies(url)
      let response = HTTPURLResponse(
        url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": "\(body.count)"])!
      pending.continuation.yield(.response(response))
      pending.continuation.yield(.data(body, received: Int64(body.count), expected: Int64(body.count)))
      pending.continuation.finish()
    }
  }
}
