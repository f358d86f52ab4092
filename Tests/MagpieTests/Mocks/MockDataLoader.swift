import Foundation

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A scripted ``DataLoading``: per URL, a list of outcomes used one per
/// attempt; optional suspension so a test can hold transfers, act, then let
/// them go. Counts what it was asked to do.
final class MockDataLoader: DataLoading, Sendable {
  /// One attempt's outcome.
  enum Outcome: Sendable {
    /// An HTTP answer with this status, headers and body, sent in chunks.
    case respond(status: Int = 200, headers: [String: String] = [:], body: Data, chunkSize: Int = 4096)
    /// An HTTP 200 answer whose body arrives in the given pieces.
    case respondInChunks(headers: [String: String] = [:], chunks: [Data])
    /// A failure before any response.
    case fail(MagpieError)
  }

  private struct State {
    var scripts: [String: [Outcome]] = [:]
    var fallback: Outcome = .respond(body: Data([0xFF, 0xD8, 0xFF]))
    var suspended = false
    var waiting: [CheckedContinuation<Void, Never>] = []
    var started: [String] = []
    var cancelled: [String] = []
    var requests: [URLRequest] = []
    var pacing = false
    var chunkPermits = 0
    var chunkWaiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Lock(State())
  private let starts = AsyncCounter()
  private let cancels = AsyncCounter()

  /// Scripts `outcomes` for `url`, one per attempt; the last one repeats.
  func script(_ url: URL, _ outcomes: Outcome...) {
    state.withLock { $0.scripts[url.absoluteString] = outcomes }
  }

  /// Holds every new transfer before it responds, until ``resume()``.
  func suspend() { state.withLock { $0.suspended = true } }

  /// Lets held transfers (and later ones) go.
  func resume() {
    let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.suspended = false
      defer { state.waiting = [] }
      return state.waiting
    }
    for continuation in waiting { continuation.resume() }
  }

  /// From now on each body chunk waits for a permit from ``allowChunks(_:)``.
  func paceChunks() { state.withLock { $0.pacing = true } }

  /// Lets `count` more body chunks go.
  func allowChunks(_ count: Int) {
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.chunkPermits += count
      let n = min(state.chunkPermits, state.chunkWaiters.count)
      state.chunkPermits -= n
      defer { state.chunkWaiters.removeFirst(n) }
      return Array(state.chunkWaiters.prefix(n))
    }
    for continuation in ready { continuation.resume() }
  }

  private func waitForChunkPermit() async {
    await withCheckedContinuation { continuation in
      let go = state.withLock { state -> Bool in
        guard state.pacing else { return true }
        if state.chunkPermits > 0 {
          state.chunkPermits -= 1
          return true
        }
        state.chunkWaiters.append(continuation)
        return false
      }
      if go { continuation.resume() }
    }
  }

  /// URLs in the order their transfers started.
  var startedURLs: [String] { state.withLock { $0.started } }
  /// URLs whose transfers were cancelled by the consumer.
  var cancelledURLs: [String] { state.withLock { $0.cancelled } }
  /// Every request received.
  var requests: [URLRequest] { state.withLock { $0.requests } }

  /// Returns once `count` transfers have started in all.
  func waitForStarts(_ count: Int) async {
    await starts.wait(for: count)
  }

  /// Returns once `count` transfers have been cancelled in all.
  func waitForCancels(_ count: Int) async {
    await cancels.wait(for: count)
  }

  func load(_ request: URLRequest) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
    let url = request.url?.absoluteString ?? ""
    return AsyncThrowingStream { continuation in
      let task = Task {
        let outcome = state.withLock { state -> Outcome in
          state.started.append(url)
          state.requests.append(request)
          var outcome = state.fallback
          if var script = state.scripts[url], !script.isEmpty {
            outcome = script[0]
            if script.count > 1 { script.removeFirst() }
            state.scripts[url] = script
          }
          return outcome
        }
        starts.increment()
        await withCheckedContinuation { gate in
          let held = state.withLock { state -> Bool in
            guard state.suspended else { return false }
            state.waiting.append(gate)
            return true
          }
          if !held { gate.resume() }
        }
        if Task.isCancelled {
          continuation.finish(throwing: MagpieError(.cancelled, "cancelled"))
          return
        }
        switch outcome {
        case .fail(let error):
          continuation.finish(throwing: error)
        case .respond(let status, let headers, let body, let chunkSize):
          var fields = headers
          fields["Content-Length"] = "\(body.count)"
          let response = HTTPURLResponse(
            url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)!
          continuation.yield(.response(response))
          var offset = 0
          while offset < body.count {
            await self.waitForChunkPermit()
            let end = min(offset + max(1, chunkSize), body.count)
            continuation.yield(.data(body[offset..<end], received: Int64(end), expected: Int64(body.count)))
            offset = end
            await Task.yield()
          }
          continuation.finish()
        case .respondInChunks(let headers, let chunks):
          let total = chunks.reduce(0) { $0 + $1.count }
          var fields = headers
          fields["Content-Length"] = "\(total)"
          let response = HTTPURLResponse(
            url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields)!
          continuation.yield(.response(response))
          var received = 0
          for chunk in chunks {
            await self.waitForChunkPermit()
            received += chunk.count
            continuation.yield(.data(chunk, received: Int64(received), expected: Int64(total)))
          }
          continuation.finish()
        }
      }
      continuation.onTermination = { [weak self] termination in
        if case .cancelled = termination {
          task.cancel()
          self?.state.withLock { $0.cancelled.append(url) }
          self?.cancels.increment()
        }
      }
    }
  }
}
