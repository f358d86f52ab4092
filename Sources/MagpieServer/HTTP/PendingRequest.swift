import CMicroHTTPD
import Magpie

/// One request from the access handler's first call to its completion:
/// an answer decided at once, or a request for the handler, started (and
/// its connection suspended) once the request is whole and answered on the
/// call after the resume. MHD holds it (retained) in the connection's
/// per-request pointer until the request completes.
final class PendingRequest: Sendable {
  /// Whether the request counts in the server's ``InFlightTable`` (it
  /// goes to the handler).
  let counted: Bool
  private let state: Lock<(request: HTTPRequest?, response: HTTPResponse?, task: Task<Void, Never>?)>

  /// A request answered with `response`, without the handler.
  init(answer response: HTTPResponse) {
    counted = false
    state = Lock((nil, response, nil))
  }

  /// A request for the handler.
  init(request: HTTPRequest) {
    counted = true
    state = Lock((request, nil, nil))
  }

  /// The request for the handler, once: `nil` when it was started already
  /// or there is none.
  func start() -> HTTPRequest? {
    state.withLock { state in
      defer { state.request = nil }
      return state.request
    }
  }

  /// The response, once the handler has returned.
  var response: HTTPResponse? { state.withLock { $0.response } }

  /// Records the handler's answer.
  func finish(with response: HTTPResponse) { state.withLock { $0.response = response } }

  /// Keeps the handler's task, so a shutdown past its grace can cancel it.
  func attach(_ task: Task<Void, Never>) { state.withLock { $0.task = task } }

  /// Cancels the handler's task; it still answers (503), which resumes
  /// the connection.
  func cancel() { state.withLock { $0.task }?.cancel() }
}
